import {
	BarChart3Icon,
	BriefcaseIcon,
	Building2Icon,
	CalendarDaysIcon,
	CreditCardIcon,
	FileTextIcon,
	GiftIcon,
	MessageSquareIcon,
	PackageIcon,
	PuzzleIcon,
	StethoscopeIcon,
	UsersIcon,
	WalletIcon,
	ZapIcon,
	type IconComponent,
} from '#app/components/icons.tsx'

/** The catalogue's icon names (modules.icon, supabase/seed.sql) and the templates' icons. */
const icons: Record<string, IconComponent> = {
	BarChart3: BarChart3Icon,
	Briefcase: BriefcaseIcon,
	Building2: Building2Icon,
	Calendar: CalendarDaysIcon,
	CalendarDays: CalendarDaysIcon,
	CreditCard: CreditCardIcon,
	FileText: FileTextIcon,
	Gift: GiftIcon,
	MessageSquare: MessageSquareIcon,
	Package: PackageIcon,
	Stethoscope: StethoscopeIcon,
	Users: UsersIcon,
	Wallet: WalletIcon,
	Zap: ZapIcon,
}

export function ModuleIcon({ name, className }: { name: string | null; className?: string }) {
	const Icon = (name && icons[name]) || PuzzleIcon
	return <Icon className={className} aria-hidden="true" />
}
