import type { SVGProps } from 'react'
import { iconId, type IconName } from './icon-names.ts'
import spriteUrl from './icons.svg?url&no-inline'

/**
 * The app's icons: lucide's drawings, drawn from one cached sprite file (docs/decisions/030-lighter-pages.md).
 * Each icon is an `<svg>` with one `<use>` instead of lucide-react's inline paths: a page carries a
 * few bytes per icon, and the server renders two elements instead of four or five.
 * The look is lucide's: `.lucide` in app/styles/app.css sets the stroke and the 24 px size;
 * `className` sizes and colours an icon as before. Hidden from screen readers unless given a label.
 */
export type IconProps = Omit<SVGProps<SVGSVGElement>, 'children' | 'ref'>
export type IconComponent = (props: IconProps) => React.JSX.Element

function icon(name: IconName): IconComponent {
	const href = `${spriteUrl}#${iconId(name)}`
	function Icon({ className, ...props }: IconProps) {
		const labelled = props['aria-label'] !== undefined || props['aria-labelledby'] !== undefined || props.role !== undefined
		return (
			<svg aria-hidden={labelled ? undefined : 'true'} {...props} className={className ? `lucide ${className}` : 'lucide'}>
				<use href={href} />
			</svg>
		)
	}
	Icon.displayName = `${name}Icon`
	return Icon
}

export const AlertCircleIcon = icon('AlertCircle')
export const ArrowDownIcon = icon('ArrowDown')
export const ArrowLeftIcon = icon('ArrowLeft')
export const ArrowLeftRightIcon = icon('ArrowLeftRight')
export const ArrowRightIcon = icon('ArrowRight')
export const ArrowUpDownIcon = icon('ArrowUpDown')
export const ArrowUpIcon = icon('ArrowUp')
export const BarChart3Icon = icon('BarChart3')
export const BlocksIcon = icon('Blocks')
export const BriefcaseIcon = icon('Briefcase')
export const Building2Icon = icon('Building2')
export const CalculatorIcon = icon('Calculator')
export const CalendarCheckIcon = icon('CalendarCheck')
export const CalendarDaysIcon = icon('CalendarDays')
export const CheckCircle2Icon = icon('CheckCircle2')
export const CheckIcon = icon('Check')
export const ChevronDownIcon = icon('ChevronDown')
export const ChevronLeftIcon = icon('ChevronLeft')
export const ChevronRightIcon = icon('ChevronRight')
export const ChevronUpIcon = icon('ChevronUp')
export const ChevronsUpDownIcon = icon('ChevronsUpDown')
export const CircleDotIcon = icon('CircleDot')
export const CircleIcon = icon('Circle')
export const CopyIcon = icon('Copy')
export const CreditCardIcon = icon('CreditCard')
export const DollarSignIcon = icon('DollarSign')
export const DownloadIcon = icon('Download')
export const ExternalLinkIcon = icon('ExternalLink')
export const EyeIcon = icon('Eye')
export const EyeOffIcon = icon('EyeOff')
export const FileTextIcon = icon('FileText')
export const GemIcon = icon('Gem')
export const GiftIcon = icon('Gift')
export const HeartIcon = icon('Heart')
export const HistoryIcon = icon('History')
export const InfinityIcon = icon('Infinity')
export const InfoIcon = icon('Info')
export const LanguagesIcon = icon('Languages')
export const LayoutDashboardIcon = icon('LayoutDashboard')
export const Loader2Icon = icon('Loader2')
export const LogOutIcon = icon('LogOut')
export const MailIcon = icon('Mail')
export const MenuIcon = icon('Menu')
export const MessageSquareIcon = icon('MessageSquare')
export const MinusIcon = icon('Minus')
export const PackageIcon = icon('Package')
export const PanelLeftIcon = icon('PanelLeft')
export const PencilIcon = icon('Pencil')
export const PlusIcon = icon('Plus')
export const PuzzleIcon = icon('Puzzle')
export const ReceiptIcon = icon('Receipt')
export const RefreshCwIcon = icon('RefreshCw')
export const RepeatIcon = icon('Repeat')
export const SaveIcon = icon('Save')
export const SearchIcon = icon('Search')
export const SettingsIcon = icon('Settings')
export const StethoscopeIcon = icon('Stethoscope')
export const StoreIcon = icon('Store')
export const TagIcon = icon('Tag')
export const TagsIcon = icon('Tags')
export const Trash2Icon = icon('Trash2')
export const UploadIcon = icon('Upload')
export const UserXIcon = icon('UserX')
export const UsersIcon = icon('Users')
export const WalletIcon = icon('Wallet')
export const XIcon = icon('X')
export const ZapIcon = icon('Zap')
