import type { CorpusKit } from './kits'

/**
 * Real release pairs of packages nobody here wrote (`bench/upgrades`): release N and release N+1 of
 * the same template or app, both installed from npm by version as aliases among this package's
 * devDependencies (`up-…`, pinned in the lockfile). Each side is served by its own `startCorpusServer({ kits:
 * [side] })` under the same kit id, so a case recorded on N replays on N+1 with `qa replay --url`.
 */
export interface ReleasePair {
  /** e.g. `sb-admin-6-7`. */
  readonly id: string
  /** What changed between the two releases, for reports. */
  readonly change: 'minor release' | 'major redesign' | 'framework port' | 'single-page app'
  readonly note: string
  readonly from: CorpusKit & { readonly version: string }
  readonly to: CorpusKit & { readonly version: string }
  /** Page on N → its counterpart page on N+1 (paths inside each package). */
  readonly pages: readonly { readonly from: string; readonly to: string }[]
}

const same = (...paths: string[]) => paths.map((p) => ({ from: p, to: p }))

const kit = (
  id: string,
  pkg: string,
  version: string,
  tech: string,
  pages: readonly string[],
  extra: Partial<CorpusKit> = {},
): CorpusKit & { version: string } => ({ id, pkg, version, tech, pages, kind: 'static', ...extra })

const sbAdminPages = [
  'dist/index.html',
  'dist/login.html',
  'dist/register.html',
  'dist/tables.html',
  'dist/password.html',
]
const gentelellaPages = [
  'dist/production/index.html',
  'dist/production/form.html',
  'dist/production/form_buttons.html',
  'dist/production/general_elements.html',
  'dist/production/login.html',
  'dist/production/user_management.html',
]
const md3Pages = [
  'pages/dashboard.html',
  'pages/sign-in.html',
  'pages/profile.html',
  'pages/billing.html',
  'pages/tables.html',
]
const spa = (readySelector: string) => ({ kind: 'spa' as const, readySelector })

export const releasePairs: readonly ReleasePair[] = [
  {
    id: 'sb-admin-6-7',
    change: 'framework port',
    note: 'Start Bootstrap SB Admin 6.0.2 (Bootstrap 4, jQuery DataTables) → 7.0.7 (Bootstrap 5, simple-datatables)',
    from: kit('sb-admin', 'up-sb-admin-6', '6.0.2', 'Bootstrap 4 admin template', sbAdminPages),
    to: kit('sb-admin', 'startbootstrap-sb-admin', '7.0.7', 'Bootstrap 5 admin template', sbAdminPages),
    pages: same(...sbAdminPages),
  },
  {
    id: 'agency-6-7',
    change: 'framework port',
    note: 'Start Bootstrap Agency 6.0.5 (Bootstrap 4) → 7.0.12 (Bootstrap 5, new contact form)',
    from: kit('agency', 'up-agency-6', '6.0.5', 'Bootstrap 4 one-page theme', ['dist/index.html']),
    to: kit('agency', 'startbootstrap-agency', '7.0.12', 'Bootstrap 5 one-page theme', ['dist/index.html']),
    pages: same('dist/index.html'),
  },
  {
    id: 'creative-6-7',
    change: 'framework port',
    note: 'Start Bootstrap Creative 6.0.5 (Bootstrap 4, Magnific Popup) → 7.0.7 (Bootstrap 5, SimpleLightbox, contact form)',
    from: kit('creative', 'up-creative-6', '6.0.5', 'Bootstrap 4 one-page theme', ['dist/index.html']),
    to: kit('creative', 'up-creative-7', '7.0.7', 'Bootstrap 5 one-page theme', ['dist/index.html']),
    pages: same('dist/index.html'),
  },
  {
    id: 'freelancer-6-7',
    change: 'framework port',
    note: 'Start Bootstrap Freelancer 6.0.6 (Bootstrap 4) → 7.0.7 (Bootstrap 5, Font Awesome 6)',
    from: kit('freelancer', 'up-freelancer-6', '6.0.6', 'Bootstrap 4 one-page theme', ['dist/index.html']),
    to: kit('freelancer', 'up-freelancer-7', '7.0.7', 'Bootstrap 5 one-page theme', ['dist/index.html']),
    pages: same('dist/index.html'),
  },
  {
    id: 'material-dashboard-2-3',
    change: 'major redesign',
    note: 'Creative Tim Material Dashboard 2.1.0 (Bootstrap 4, examples/) → 3.1.0 (Bootstrap 5 redesign, pages/)',
    from: kit('material-dashboard', 'up-material-dashboard-2', '2.1.0', 'Material Design for Bootstrap 4', [
      'examples/dashboard.html',
      'examples/tables.html',
      'examples/user.html',
      'examples/notifications.html',
    ]),
    to: kit('material-dashboard', 'material-dashboard', '3.1.0', 'Material Design for Bootstrap 5', [
      'pages/dashboard.html',
      'pages/tables.html',
      'pages/profile.html',
      'pages/notifications.html',
    ]),
    pages: [
      { from: 'examples/dashboard.html', to: 'pages/dashboard.html' },
      { from: 'examples/tables.html', to: 'pages/tables.html' },
      { from: 'examples/user.html', to: 'pages/profile.html' },
      { from: 'examples/notifications.html', to: 'pages/notifications.html' },
    ],
  },
  {
    id: 'material-dashboard-309-310',
    change: 'minor release',
    note: 'Material Dashboard 3.0.9 → 3.1.0',
    from: kit('material-dashboard', 'up-material-dashboard-309', '3.0.9', 'Material Design for Bootstrap 5', md3Pages),
    to: kit('material-dashboard', 'material-dashboard', '3.1.0', 'Material Design for Bootstrap 5', md3Pages),
    pages: same(...md3Pages),
  },
  {
    id: 'gentelella-411-420',
    change: 'minor release',
    note: 'Gentelella 4.1.1 → 4.2.0 (Bootstrap 5, Vite build)',
    from: kit('gentelella', 'up-gentelella-411', '4.1.1', 'Bootstrap 5 admin template (Vite build)', gentelellaPages, {
      absoluteRoot: 'dist',
    }),
    to: kit('gentelella', 'gentelella', '4.2.0', 'Bootstrap 5 admin template (Vite build)', gentelellaPages, {
      absoluteRoot: 'dist',
    }),
    pages: same(...gentelellaPages),
  },
  {
    id: 'swagger-ui-4-5',
    change: 'single-page app',
    note: 'swagger-ui-dist 4.19.1 → 5.35.0 (React SPA, OpenAPI 3.1 support, new markup) on the same local document',
    from: kit('swagger-ui', 'up-swagger-ui-4', '4.19.1', 'React SPA', ['index.html'], spa('.opblock')),
    to: kit('swagger-ui', 'swagger-ui-dist', '5.35.0', 'React SPA', ['index.html'], spa('.opblock')),
    pages: same('index.html'),
  },
  {
    id: 'redoc-200-254',
    change: 'single-page app',
    note: 'redoc 2.0.0 → 2.5.4 (React SPA, standalone bundle) on the same local document',
    from: kit('redoc', 'up-redoc-200', '2.0.0', 'React SPA', ['index.html'], spa('.menu-content li')),
    to: kit('redoc', 'redoc', '2.5.4', 'React SPA', ['index.html'], spa('.menu-content li')),
    pages: same('index.html'),
  },
]

/** CDN files the older releases load, answered from the `up-…` aliases (pinned in the lockfile). */
export const releaseCdn: readonly (readonly [RegExp, string])[] = [
  [/^https:\/\/cdn\.jsdelivr\.net\/npm\/bootstrap@4[^/]*\/(.*)$/, '/__npm/up-bootstrap-4/$1'],
  [/^https:\/\/cdn\.jsdelivr\.net\/npm\/bootstrap-icons@1[^/]*\/(.*)$/, '/__npm/up-bootstrap-icons-1/$1'],
  [/^https:\/\/code\.jquery\.com\/jquery-3[.\d]*(\.slim)?\.min\.js$/, '/__npm/up-jquery-3/dist/jquery$1.min.js'],
  [/^https:\/\/cdnjs\.cloudflare\.com\/ajax\/libs\/font-awesome\/5[^/]*\/(.*)$/, '/__npm/up-fontawesome-5/$1'],
  [/^https:\/\/use\.fontawesome\.com\/releases\/v5[^/]*\/(.*)$/, '/__npm/up-fontawesome-5/$1'],
  [/^https:\/\/cdn\.datatables\.net\/1\.10[^/]*\/js\/jquery\.(.*)$/, '/__npm/up-datatables-1/js/jquery.$1'],
  [
    /^https:\/\/cdn\.datatables\.net\/1\.10[^/]*\/(js|css)\/dataTables\.bootstrap4(.*)$/,
    '/__npm/up-datatables-bs4-1/$1/dataTables.bootstrap4$2',
  ],
]
