/**
 * What every route of `app/routes.ts` lets whom do, for the attacker's walk (tests/security,
 * docs/security.md). A test checks that every route of the table has exactly one entry here and
 * every entry a route, so a new route cannot be forgotten: add its entry next to it.
 *
 * - `access`: who may read it, as the route's loader enforces it. `public`: anyone (the landing
 *   page, the booking wizard, stored pictures); `guest`: the sign-in pages, meant for the
 *   signed-out; `user`: any signed-in user (onboarding); `member`: a member of the current
 *   organization, whatever their role; `module`: a member whose organization has the route's
 *   module active, and whose role its visibility lets in; `administrator`: an administrator or an
 *   owner (docs/product.md, Roles and permissions); `owner`: the organization's owners only;
 *   `token`: whoever holds the link's token (a booking's manage link, a recovery link). The walk
 *   checks each level both ways: someone just below it is refused, someone at it let in.
 * - `ids`: the path parameters that name a stored row of one organization. The walk fills them
 *   with another organization's rows and expects a 403/404 without that organization's data.
 * - `post`: what the route's action takes (null: no action, a POST is a 405 or a 4xx):
 *   `intents` (the values of the `intent` field; `[]` when it has none), the text `fields` its
 *   forms send (data-table rows as `rows[].name`, weekdays as `{day}`), and `pages`: where its forms are rendered, so
 *   the walk reads them as a browser without JavaScript would and puts hostile text in every field;
 *   `bare`: the intents that change something with no field at all (the path names what they act on);
 *   `owner`: the intents only owners may post, on a route that others may read (the rest need `access`).
 * - `redirects`: the query or form parameters whose value decides a redirect.
 * - `html`: a GET of its own path renders an HTML page (its headers and script nonces are checked);
 *   false for a layout whose path redirects to a child, which is checked as that child.
 */
export type Access = 'public' | 'guest' | 'user' | 'member' | 'module' | 'administrator' | 'owner' | 'token'

export type RouteSecurity = {
	id: string
	path: string
	/** An index route: a form posts to it as `path?index`. */
	index?: true
	access: Access
	html: boolean
	ids?: string[]
	post: null | { intents: string[]; fields: string[]; pages?: string[]; bare?: string[]; owner?: string[] }
	redirects?: string[]
}

const SHELL = null

/** A module's page, under the app and under Settings: any member syncs the mailbox, owners do the rest. */
const MODULE_INTENTS = [
	'saveSettings',
	'resetSettings',
	'activate',
	'deactivate',
	'purchaseUpgrade',
	'removeUpgrade',
	'connectGoogle',
	'connectImap',
	'refreshIntegration',
	'disconnectIntegration',
	'syncNow',
]

/** The invoice draft form's fields (its lines as `lines[].name`). */
const INVOICE_FIELDS = [
	'intent',
	'version',
	'clientId',
	'client',
	'language',
	'issueDate',
	'dueDate',
	'discount',
	'taxRate',
	'notes',
	'lines[].description',
	'lines[].quantity',
	'lines[].unitPrice',
]

/** The recurring invoice form's fields (app/components/invoices/recurring-form.tsx). */
const SCHEDULE_FIELDS = [
	'intent',
	'clientId',
	'client',
	'language',
	'cadence',
	'startDate',
	'ends',
	'endDate',
	'count',
	'daysUntilDue',
	'discount',
	'taxRate',
	'notes',
	'lines[].description',
	'lines[].quantity',
	'lines[].unitPrice',
]

export const routeSecurity: RouteSecurity[] = [
	{ id: 'routes/landing', path: '/', index: true, access: 'public', html: true, post: SHELL },
	{
		id: 'routes/auth/auth',
		path: '/auth',
		access: 'guest',
		html: true,
		redirects: ['redirectTo'],
		post: { intents: ['login', 'signup'], fields: ['email', 'password', 'fullName', 'confirmPassword', 'redirectTo'] },
	},
	{
		id: 'routes/auth/forgot-password',
		path: '/auth/forgot-password',
		access: 'guest',
		html: true,
		post: { intents: [], fields: ['email'], pages: ['/auth/forgot-password'] },
	},
	{
		id: 'routes/auth/reset-password',
		path: '/auth/reset-password',
		access: 'token',
		html: true,
		post: { intents: [], fields: ['token', 'password', 'confirmPassword'] },
	},
	{ id: 'routes/auth/google', path: '/auth/google', access: 'guest', html: false, redirects: ['redirectTo'], post: null },
	{ id: 'routes/auth/callback', path: '/auth/callback', access: 'token', html: false, post: null },
	{ id: 'routes/auth/sign-out', path: '/auth/sign-out', access: 'public', html: false, post: { intents: [], fields: [] } },
	{ id: 'routes/auth/confirm-email', path: '/auth/confirm-email', access: 'token', html: true, post: { intents: [], fields: ['token'] } },
	{ id: 'routes/auth/invitation', path: '/auth/invitation', access: 'token', html: true, post: { intents: [], fields: ['token'] } },
	{
		id: 'routes/auth/verify-email',
		path: '/auth/verify-email',
		access: 'token',
		html: true,
		redirects: ['redirectTo'],
		post: { intents: ['verify', 'resend'], fields: ['token', 'redirectTo'], pages: ['/app/dashboard'] },
	},
	{ id: 'routes/auth/revert-email', path: '/auth/revert-email', access: 'token', html: true, post: { intents: [], fields: ['token'] } },
	{ id: 'routes/unsubscribe', path: '/unsubscribe', access: 'token', html: true, post: { intents: [], fields: ['token'] } },
	// A client's unsubscribe from an organization's reminders (docs/product.md, Reminders & Messaging): signed link, GET asks, POST records.
	{
		id: 'routes/messaging/unsubscribe',
		path: '/unsubscribe/client',
		access: 'token',
		html: true,
		post: { intents: [], fields: ['o', 'e', 's'] },
	},
	{ id: 'routes/onboarding', path: '/onboarding', access: 'user', html: true, post: { intents: [], fields: ['name'] } },
	{
		id: 'routes/preferences',
		path: '/preferences',
		access: 'public',
		html: false,
		redirects: ['redirectTo'],
		post: {
			intents: ['language', 'sidebar', 'organization'],
			fields: ['intent', 'redirectTo', 'state', 'organizationId'],
			pages: ['/app/dashboard'],
		},
	},
	{ id: 'routes/healthz', path: '/healthz', access: 'public', html: false, post: null },
	// The JSON API lets in whoever holds a personal API token (tests/e2e/api-tokens.spec.ts, docs/api.md).
	{ id: 'routes/api/v1/payments', path: '/api/v1/payments', access: 'token', html: false, post: null },
	{ id: 'routes/api/v1/clients', path: '/api/v1/clients', access: 'token', html: false, post: null },
	{ id: 'routes/storage', path: '/storage/:bucket/*', access: 'public', html: false, post: null },

	{ id: 'routes/app/layout', path: '/app', access: 'member', html: false, post: null },
	{ id: 'routes/app/index', path: '/app', index: true, access: 'member', html: false, post: null },
	{ id: 'routes/app/dashboard', path: '/app/dashboard', access: 'member', html: true, post: null },
	{
		id: 'routes/app/transactions',
		path: '/app/transactions',
		access: 'member',
		html: true,
		post: {
			intents: ['save', 'sync', 'cancel'],
			bare: ['sync'],
			fields: [
				'rows[].dateReceived',
				'rows[].clientId',
				'rows[].client',
				'rows[].externalId',
				'rows[].amount',
				'rows[].tip',
				'rows[].description',
				'rows[].id',
				'rows[].version',
				'rows[].fingerprint',
				'rows[].blank',
				'saveKey',
				'formEnd',
				'rows[].newClient',
			],
			pages: ['/app/transactions?edit=1&add=1'],
		},
	},
	// Bank reconciliation (docs/product.md, Bank feed): any member reads it; without the upgrade every post is a 403.
	{
		id: 'routes/app/bank-feed/reconciliation',
		path: '/app/transactions/reconciliation',
		access: 'member',
		html: true,
		post: {
			intents: ['upload', 'remove', 'reconcile'],
			fields: ['intent', 'statementId'],
			pages: ['/app/transactions/reconciliation'],
			bare: ['reconcile'],
		},
	},
	{
		id: 'routes/app/imports/upload',
		path: '/app/transactions/import',
		access: 'member',
		html: true,
		post: {
			intents: ['upload', 'map', 'forget-mapping'],
			fields: ['intent', 'progress', 'signature'],
			pages: ['/app/transactions/import'],
		},
	},
	{
		id: 'routes/app/imports/history',
		path: '/app/transactions/import/history',
		access: 'member',
		html: true,
		post: { intents: ['undo'], fields: ['intent', 'batchId'] },
	},
	{
		id: 'routes/app/imports/review',
		path: '/app/transactions/import/review',
		access: 'member',
		html: true,
		post: { intents: [], fields: ['transactionId', 'clientId', 'saveAlias'] },
	},
	// :token is made by the browser for one upload and read only within the member's organization (null otherwise).
	{ id: 'routes/app/imports/progress', path: '/app/transactions/import/progress/:token', access: 'member', html: false, post: null },
	{
		id: 'routes/app/imports/preview',
		path: '/app/transactions/import/:batchId',
		access: 'member',
		html: true,
		ids: ['batchId'],
		post: { intents: ['commit', 'discard'], fields: ['intent', 'progress'], bare: ['commit', 'discard'] },
	},
	{
		id: 'routes/app/clients',
		path: '/app/clients',
		access: 'member',
		html: true,
		post: {
			intents: ['save', 'cancel'],
			fields: [
				'rows[].name',
				'rows[].email',
				'rows[].phone',
				'rows[].company',
				'rows[].id',
				'rows[].version',
				'rows[].fingerprint',
				'rows[].blank',
				'saveKey',
				'formEnd',
			],
			pages: ['/app/clients?edit=1&add=1'],
		},
	},
	// Merging a client into another: the path names the merged client, `into` the kept one (docs/product.md, Clients from bookings).
	// With CRM Basic Fields and Pipelines: tags, notes (a note's id), adding the client to a pipeline.
	{
		id: 'routes/app/client-detail',
		path: '/app/clients/:clientId',
		access: 'member',
		html: true,
		ids: ['clientId'],
		post: {
			intents: ['merge', 'tags', 'addNote', 'deleteNote', 'addToPipeline'],
			fields: ['intent', 'into', 'tags', 'body', 'noteId', 'pipelineId'],
		},
	},
	// Client CSV import (CRM Basic Fields): a file previewed, then its text committed; without the upgrade, the offer.
	{
		id: 'routes/app/clients/import',
		path: '/app/clients/import',
		access: 'member',
		html: true,
		post: { intents: ['preview', 'commit'], fields: ['intent', 'csv'] },
	},
	// The clients list as filtered, as CSV (CRM Basic Fields; otherwise a redirect to the module's page).
	{ id: 'routes/app/clients/export', path: '/app/clients/export.csv', access: 'member', html: false, post: null },
	// CRM Enterprise: possible duplicates merged (`keep`, `merge`) or dismissed (`a`, `b`), recent merges undone (`mergeId`).
	{
		id: 'routes/app/clients/duplicates',
		path: '/app/clients/duplicates',
		access: 'member',
		html: true,
		post: {
			intents: ['merge', 'dismiss', 'undo'],
			fields: ['intent', 'keep', 'merge', 'a', 'b', 'mergeId'],
			pages: ['/app/clients/duplicates'],
		},
	},
	// CRM Pipelines: owners and administrators create pipelines (the SQL function refuses others with not_manager).
	{
		id: 'routes/app/clients/pipelines',
		path: '/app/clients/pipelines',
		access: 'member',
		html: true,
		post: { intents: ['create'], fields: ['intent', 'name', 'stages'] },
	},
	// A board: members add, move, follow up and remove cards; owners and administrators save and delete the pipeline.
	{
		id: 'routes/app/clients/pipeline',
		path: '/app/clients/pipelines/:pipelineId',
		access: 'member',
		html: true,
		ids: ['pipelineId'],
		post: {
			intents: ['save', 'delete', 'add', 'move', 'followUp', 'remove'],
			bare: ['delete'],
			fields: [
				'intent',
				'name',
				'stages[].id',
				'stages[].name',
				'stages[].position',
				'newStage',
				'clientId',
				'cardId',
				'stageId',
				'followUpOn',
				'ownerId',
			],
		},
	},
	// Who still owes me: the booking module's deposits and balances; any member who may use the module asks for a payment.
	{
		id: 'routes/app/owed',
		path: '/app/owed',
		access: 'module',
		html: true,
		// No page for the hostile-text walk: its organization owes nothing, so the page has no form (tests/e2e/owed.spec.ts posts hostile ids).
		post: { intents: ['request-payment'], fields: ['intent', 'expectationId'] },
	},
	// Reminders & Messaging (docs/product.md, Reminders & Messaging): any member who may use the module reads the templates and
	// previews them; owners and administrators save templates and settings (the others get a 403).
	{
		id: 'routes/app/messaging/index',
		path: '/app/messaging',
		access: 'module',
		html: true,
		post: {
			intents: ['preview', 'save-template', 'reset-template', 'save-settings'],
			fields: ['intent', 'kind', 'language', 'subject', 'body', 'invoiceReminders', 'daysBefore', 'daysAfter'],
			pages: ['/app/messaging'],
		},
	},
	// Invoicing (docs/product.md, Invoicing): any member reads them; without the module the screens say how to activate it and
	// their actions answer 403. Delete (a draft), void and mark paid act on the invoice the path names.
	{ id: 'routes/app/invoices/list', path: '/app/invoices', access: 'member', html: true, post: null },
	{
		id: 'routes/app/invoices/new',
		path: '/app/invoices/new',
		access: 'member',
		html: true,
		post: { intents: ['save', 'send'], fields: INVOICE_FIELDS, pages: ['/app/invoices/new'] },
	},
	{
		id: 'routes/app/invoices/invoice',
		path: '/app/invoices/:invoiceId',
		access: 'member',
		html: true,
		ids: ['invoiceId'],
		post: {
			intents: ['save', 'send', 'delete', 'void', 'mark-paid', 'link-payment', 'unlink'],
			bare: ['delete', 'void', 'mark-paid'],
			fields: [...INVOICE_FIELDS, 'transaction', 'match'],
		},
	},
	// Recurring invoices (docs/product.md, Recurring invoices): any member while Invoicing is active (without it the
	// screens say so and link to it); writing a schedule needs the Recurring Invoices upgrade too, which the walk's
	// organization has, with one schedule (tests/security/world.ts).
	{
		id: 'routes/app/invoices/recurring',
		path: '/app/invoices/recurring',
		access: 'member',
		html: true,
		post: { intents: ['pause', 'resume', 'delete'], fields: ['intent', 'scheduleId'] },
	},
	{
		id: 'routes/app/invoices/recurring-new',
		path: '/app/invoices/recurring/new',
		access: 'member',
		html: true,
		post: {
			intents: ['save'],
			fields: SCHEDULE_FIELDS,
			pages: ['/app/invoices/recurring/new'],
		},
	},
	{
		id: 'routes/app/invoices/recurring-schedule',
		path: '/app/invoices/recurring/:scheduleId',
		access: 'member',
		html: true,
		ids: ['scheduleId'],
		post: {
			intents: ['save', 'pause', 'resume', 'delete'],
			bare: ['pause', 'resume', 'delete'],
			fields: SCHEDULE_FIELDS,
		},
	},
	// Expense Tracking (docs/product.md, Expense Tracking): any member reads them; without the module the screens say how
	// to activate it and their actions (and the receipt route) answer 403. Delete acts on the expense the path names.
	{ id: 'routes/app/expenses/list', path: '/app/expenses', access: 'member', html: true, post: null },
	{
		id: 'routes/app/expenses/new',
		path: '/app/expenses/new',
		access: 'member',
		html: true,
		post: {
			intents: ['save'],
			fields: ['intent', 'rows[].spentOn', 'rows[].vendor', 'rows[].amount', 'rows[].category', 'rows[].paymentMethod', 'rows[].note'],
			pages: ['/app/expenses/new'],
		},
	},
	{
		id: 'routes/app/expenses/expense',
		path: '/app/expenses/:expenseId',
		access: 'member',
		html: true,
		ids: ['expenseId'],
		post: {
			intents: ['save', 'delete'],
			bare: ['delete'],
			fields: ['intent', 'version', 'spentOn', 'vendor', 'amount', 'category', 'paymentMethod', 'note', 'removeReceipt'],
		},
	},
	{
		id: 'routes/app/expenses/receipt',
		path: '/app/expenses/:expenseId/receipt',
		access: 'member',
		html: false,
		ids: ['expenseId'],
		post: null,
	},
	{ id: 'routes/app/categories', path: '/app/categories', access: 'member', html: true, post: null },
	{ id: 'routes/app/reports', path: '/app/reports', access: 'member', html: true, post: null },
	{ id: 'routes/app/reports-export', path: '/app/reports/export.csv', access: 'member', html: false, post: null },
	// Report Export and Automation (docs/product.md, Reports): any member reads them; without the upgrade the PDF is a 403 page
	// and the automation screen explains the upgrade; owners and administrators save the automation (others get a 403).
	{ id: 'routes/app/reports/report-pdf', path: '/app/reports/report.pdf', access: 'member', html: false, post: null },
	{
		id: 'routes/app/reports/automation',
		path: '/app/reports/automation',
		access: 'member',
		html: true,
		post: {
			intents: ['save'],
			fields: ['intent', 'weeklyReport', 'monthlyReport', 'recipients', 'revenueThreshold', 'dormantWeeks'],
			pages: ['/app/reports/automation'],
		},
	},
	{ id: 'routes/app/reports/tax-year', path: '/app/reports/tax-year', access: 'member', html: true, post: null },
	{ id: 'routes/app/reports/tax-year-export', path: '/app/reports/tax-year.csv', access: 'member', html: false, post: null },
	{ id: 'routes/app/reports/tax-year-pdf', path: '/app/reports/tax-year.pdf', access: 'member', html: false, post: null },
	{ id: 'routes/app/reports/analytics', path: '/app/reports/analytics', access: 'member', html: true, post: null },
	{ id: 'routes/app/reports/analytics-pdf', path: '/app/reports/analytics.pdf', access: 'member', html: false, post: null },
	// Rules (docs/product.md, Rules): any member reads them and clears a payment's hold; owners and administrators
	// add, test, move, turn off and delete rules (others get a 403). Without the module the screen says how to activate it.
	{
		id: 'routes/app/rules/index',
		path: '/app/rules',
		access: 'member',
		html: true,
		post: {
			intents: ['create', 'preview', 'move', 'toggle', 'delete', 'clearHold'],
			fields: [
				'intent',
				'name',
				'payer',
				'amountMin',
				'amountMax',
				'paymentMethod',
				'memoContains',
				'source',
				'setCategory',
				'setClientId',
				'addTag',
				'notifyUserId',
				'hold',
				'ruleId',
				'direction',
				'enabled',
				'transactionId',
			],
			pages: ['/app/rules'],
		},
	},
	// Webhooks (docs/product.md, Webhooks): owners and administrators add and remove endpoints and resend deliveries.
	{
		id: 'routes/app/webhooks/index',
		path: '/app/webhooks',
		access: 'administrator',
		html: true,
		post: {
			intents: ['create', 'delete', 'resend'],
			fields: ['intent', 'url', 'description', 'events', 'endpointId', 'deliveryId'],
			pages: ['/app/webhooks'],
		},
	},
	{
		id: 'routes/app/module-marketplace',
		path: '/app/module-marketplace',
		access: 'member',
		html: true,
		post: {
			intents: ['activate', 'deactivate', 'favorite', 'unfavorite'],
			owner: ['activate', 'deactivate'],
			fields: ['intent', 'moduleId'],
			pages: ['/app/module-marketplace'],
		},
	},
	{
		id: 'routes/app/module-detail',
		path: '/app/modules/:moduleId',
		access: 'member',
		html: true,
		ids: ['moduleId'],
		post: {
			intents: MODULE_INTENTS,
			owner: MODULE_INTENTS.filter((i) => i !== 'syncNow'),
			fields: ['intent', 'upgradeId', 'provider', 'host', 'port', 'tls', 'user', 'password'],
			bare: ['resetSettings', 'activate', 'deactivate', 'syncNow'],
		},
	},
	{
		id: 'routes/app/module-settings-export',
		path: '/app/modules/:moduleId/settings.json',
		access: 'member',
		html: false,
		ids: ['moduleId'],
		post: null,
	},
	{
		id: 'settings-module-detail',
		path: '/app/settings/modules/:moduleId',
		access: 'member',
		html: true,
		ids: ['moduleId'],
		post: {
			intents: MODULE_INTENTS,
			owner: MODULE_INTENTS.filter((i) => i !== 'syncNow'),
			fields: ['intent', 'upgradeId', 'provider', 'host', 'port', 'tls', 'user', 'password'],
			bare: ['resetSettings', 'activate', 'deactivate', 'syncNow'],
		},
	},
	// Custom parsing rules (docs/product.md, Email sync › Custom parsing rules): owners and administrators, with Email Pro.
	{
		id: 'routes/app/email/parsing-rules',
		path: '/app/modules/b0000000-0000-4000-8000-000000000001/parsing-rules',
		access: 'administrator',
		html: true,
		post: {
			intents: ['test', 'save', 'delete'],
			fields: [
				'intent',
				'ruleId',
				'name',
				'sender',
				'subjectContains',
				'amountLabel',
				'payerLabel',
				'idLabel',
				'paymentMethod',
				'defaultCategory',
				'sampleFrom',
				'sampleSubject',
				'sample',
			],
			pages: ['/app/modules/b0000000-0000-4000-8000-000000000001/parsing-rules'],
		},
	},
	{ id: 'routes/app/integrations-google-callback', path: '/app/integrations/google/callback', access: 'member', html: false, post: null },
	// No form: plans are not sold online, "Contact us" is a mail link (docs/product.md, Plans).
	{ id: 'routes/app/plans', path: '/app/plans', access: 'member', html: true, post: null },
	{ id: 'routes/app/gears', path: '/app/gears', access: 'member', html: true, post: null },
	{
		id: 'routes/app/zone',
		path: '/app/zone',
		access: 'member',
		html: false,
		redirects: ['redirectTo'],
		// The shell's question about a zone nobody chose (ZoneQuestion): shown and answered by owners only.
		post: { intents: ['use', 'keep'], fields: ['intent', 'timezone', 'redirectTo'], bare: ['keep'], owner: ['use', 'keep'] },
	},
	// Any member: without the module, the layout says how to activate it (its tabs answer 403); the index sends to the calendar.
	{ id: 'routes/app/booking/layout', path: '/app/booking', access: 'member', html: false, post: null },
	{ id: 'routes/app/booking/index', path: '/app/booking', index: true, access: 'member', html: false, post: null },
	{
		id: 'routes/app/booking/calendar',
		path: '/app/booking/calendar',
		access: 'module',
		html: true,
		post: { intents: ['change-status', 'create-appointment'], fields: ['intent', 'id', 'change', 'day'] },
	},
	// One appointment (docs/product.md, Booking › The appointment page); the calendar's side panel posts here too.
	{
		id: 'routes/app/booking/appointment',
		path: '/app/booking/appointments/:appointmentId',
		access: 'module',
		html: true,
		ids: ['appointmentId'],
		post: {
			intents: ['change-status', 'move', 'mark-paid', 'link-payment', 'unmatch'],
			bare: ['mark-paid'],
			fields: ['intent', 'change', 'date', 'time', 'provider', 'transaction', 'match', 'back', 'backDay', 'backView', 'backProvider'],
		},
	},
	{
		id: 'routes/app/booking/services',
		path: '/app/booking/services',
		access: 'module',
		html: true,
		post: {
			intents: ['save', 'cancel'],
			fields: [
				'rows[].name',
				'rows[].description',
				'rows[].price',
				'rows[].duration',
				'rows[].depositAmount',
				'rows[].depositAfterNoShows',
				'rows[].id',
				'rows[].version',
				'rows[].fingerprint',
				'rows[].blank',
				'saveKey',
				'formEnd',
			],
			pages: ['/app/booking/services?edit=1&add=1'],
		},
	},
	{
		id: 'routes/app/booking/providers',
		path: '/app/booking/providers',
		access: 'module',
		html: true,
		post: {
			intents: ['save', 'cancel'],
			fields: [
				'rows[].displayName',
				'rows[].bio',
				'rows[].avatarUrl',
				'rows[].id',
				'rows[].version',
				'rows[].fingerprint',
				'rows[].blank',
				'saveKey',
				'formEnd',
			],
			pages: ['/app/booking/providers?edit=1&add=1'],
		},
	},
	{
		id: 'routes/app/booking/provider-hours',
		path: '/app/booking/providers/:providerId/hours',
		access: 'module',
		html: true,
		ids: ['providerId'],
		post: { intents: [], fields: [] },
	},
	{ id: 'routes/app/booking/analytics', path: '/app/booking/analytics', access: 'module', html: true, post: null },
	{
		id: 'routes/app/booking/settings',
		path: '/app/booking/settings',
		access: 'module',
		html: true,
		post: {
			intents: ['save-settings', 'save-reminders', 'add-override', 'delete-override'],
			fields: [
				'intent',
				'id',
				'reminder1',
				'reminder2',
				'reminder3',
				'minAdvanceHours',
				'maxAdvanceDays',
				'bufferMinutes',
				'cancellationHours',
				'depositHold',
				'depositHoldBeforeStartHours',
				'hours.{day}.start',
				'hours.{day}.end',
				'date',
				'note',
				'start',
				'end',
			],
			pages: ['/app/booking/settings'],
		},
	},
	{ id: 'routes/app/booking/events', path: '/app/booking/events', access: 'module', html: false, post: null },
	{ id: 'routes/app/settings/layout', path: '/app/settings', access: 'member', html: true, post: null },
	{
		id: 'routes/app/settings/profile',
		path: '/app/settings',
		index: true,
		access: 'member',
		html: true,
		post: {
			intents: ['profile', 'email-change', 'avatar-upload', 'avatar-remove', 'password', 'sign-out-others', 'sign-out-session'],
			fields: ['intent', 'fullName', 'username', 'phone', 'email', 'currentPassword', 'newPassword', 'confirmPassword', 'sessionId'],
			bare: ['avatar-remove'],
			pages: ['/app/settings'],
		},
	},
	{
		id: 'routes/app/settings/organization',
		path: '/app/settings/organization',
		// Every member reads it and may leave; owners change the rest (docs/product.md, Settings).
		access: 'member',
		html: true,
		post: {
			intents: ['organization', 'logo-upload', 'logo-remove', 'branding', 'payment-handles', 'leave', 'delete'],
			owner: ['organization', 'logo-upload', 'logo-remove', 'branding', 'payment-handles', 'delete'],
			fields: [
				'intent',
				'name',
				'slug',
				'description',
				'timezone',
				'state',
				'primary',
				'secondary',
				'zelle',
				'venmo',
				'cashapp',
				'paypal',
				'confirmation',
			],
			bare: ['logo-remove'],
			pages: ['/app/settings/organization'],
		},
	},
	{
		id: 'routes/app/settings/members',
		path: '/app/settings/members',
		access: 'administrator',
		html: true,
		post: {
			intents: ['invite', 'role', 'remove', 'revoke'],
			fields: ['intent', 'userId', 'email', 'invitationId'],
			pages: ['/app/settings/members'],
		},
	},
	{
		id: 'routes/app/settings/notifications',
		path: '/app/settings/notifications',
		access: 'member',
		html: true,
		post: { intents: ['notifications'], fields: ['intent'], pages: ['/app/settings/notifications'] },
	},
	{
		// A member's own API tokens; made only where the organization has CRM Enterprise (docs/api.md).
		id: 'routes/app/settings/api-tokens',
		path: '/app/settings/api-tokens',
		access: 'member',
		html: true,
		post: { intents: ['create', 'revoke'], fields: ['intent', 'name', 'scopes', 'id'], pages: ['/app/settings/api-tokens'] },
	},
	// The activity audit log: owners only, with CRM Enterprise; filtered by a GET form (tests/e2e/audit-log.spec.ts).
	{ id: 'routes/app/settings/audit-log', path: '/app/settings/audit-log', access: 'owner', html: true, post: null },
	{ id: 'routes/app/not-found', path: '/app/*', access: 'member', html: true, post: null },

	{ id: 'routes/book/invalid', path: '/book', access: 'public', html: true, post: null },
	{ id: 'routes/book/layout', path: '/book/:orgSlug', access: 'public', html: false, post: null },
	{ id: 'routes/book/index', path: '/book/:orgSlug', index: true, access: 'public', html: false, post: null },
	{ id: 'routes/book/service', path: '/book/:orgSlug/service', access: 'public', html: true, post: null },
	{ id: 'routes/book/slot', path: '/book/:orgSlug/slot', access: 'public', html: true, post: null },
	{
		id: 'routes/book/details',
		path: '/book/:orgSlug/details',
		access: 'public',
		html: true,
		post: { intents: [], fields: ['name', 'email', 'phone', 'notes', 'website'] },
	},
	{ id: 'routes/book/confirm', path: '/book/:orgSlug/confirm', access: 'public', html: true, post: { intents: [], fields: ['website'] } },
	{
		id: 'routes/book/booked',
		path: '/book/:orgSlug/booked/:id',
		access: 'token',
		html: true,
		ids: ['id'],
		post: { intents: [], fields: [] },
	},
	{ id: 'routes/book/booked-ics', path: '/book/:orgSlug/booked/:id/calendar.ics', access: 'token', html: false, ids: ['id'], post: null },
	// An invoice's public page and PDF: the token is the whole key (no id beside it), checked by tests/security/invoice-page.spec.ts.
	{ id: 'routes/invoice/page', path: '/i/:token', access: 'token', html: true, post: null },
	{ id: 'routes/invoice/pdf', path: '/i/:token/invoice.pdf', access: 'token', html: false, post: null },

	...['dashboard', 'transactions', 'clients', 'categories', 'reports', 'module-marketplace', 'booking', 'settings'].map(
		(path): RouteSecurity => ({ id: `legacy-${path}`, path: `/${path}`, access: 'public', html: false, post: null }),
	),
	{ id: 'routes/not-found', path: '/*', access: 'public', html: true, post: { intents: [], fields: [] } },
]
