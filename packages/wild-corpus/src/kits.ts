/** One UI kit, template or app of the corpus: an npm package that ships pages as static files. */
export interface CorpusKit {
  /** URL segment, e.g. `sneat` → `/sneat/html/index.html`. */
  readonly id: string
  /** npm package (a dependency of @qa/wild-corpus, pinned in the lockfile). */
  readonly pkg: string
  readonly kind: 'static' | 'spa'
  /** What the pages are built with, for reports. */
  readonly tech: string
  /** Pages, relative to the package directory. */
  readonly pages: readonly string[]
  /** The page script waits for this selector before it assigns truth ids and mutates (SPAs render late). */
  readonly readySelector?: string
  /**
   * The package's pages use absolute paths (`/assets/…`, `/js/…`) from this folder of the package: the server
   * answers such paths from here when no route matches.
   */
  readonly absoluteRoot?: string
}

/** One page of the corpus. */
export interface CorpusPage {
  readonly kit: string
  /** `<kit>/<path inside the package>`, the page's path on the server without the leading slash. */
  readonly id: string
  readonly path: string
  readonly kind: 'static' | 'spa'
}

export const corpusKits: readonly CorpusKit[] = [
  {
    id: 'gentelella',
    pkg: 'gentelella',
    kind: 'static',
    tech: 'Bootstrap 5 admin template (Vite build)',
    absoluteRoot: 'dist',
    pages: [
      'dist/production/index.html',
      'dist/production/form.html',
      'dist/production/form_buttons.html',
      'dist/production/general_elements.html',
      'dist/production/login.html',
      'dist/production/settings.html',
      'dist/production/user_management.html',
      'dist/production/form_advanced.html',
    ],
  },
  {
    id: 'stisla',
    pkg: 'stisla',
    kind: 'static',
    tech: 'Bootstrap 4 + jQuery admin template',
    pages: [
      'bootstrap-buttons.html',
      'bootstrap-form.html',
      'components-tab.html',
      'bootstrap-dropdown.html',
      'auth-login.html',
      'features-settings.html',
      'bootstrap-pagination.html',
    ],
  },
  {
    id: 'sneat',
    pkg: 'sneat-bootstrap-html-admin-template-free',
    kind: 'static',
    tech: 'Bootstrap 5 admin template (boxicons)',
    pages: [
      'html/index.html',
      'html/forms-basic-inputs.html',
      'html/ui-tabs-pills.html',
      'html/ui-buttons.html',
      'html/auth-login-basic.html',
      'html/pages-account-settings-account.html',
      'html/ui-pagination-breadcrumbs.html',
    ],
  },
  {
    id: 'material-dashboard',
    pkg: 'material-dashboard',
    kind: 'static',
    tech: 'Material Design for Bootstrap 5',
    pages: [
      'pages/dashboard.html',
      'pages/sign-in.html',
      'pages/profile.html',
      'pages/tables.html',
      'pages/billing.html',
    ],
  },
  {
    id: 'sb-admin',
    pkg: 'startbootstrap-sb-admin',
    kind: 'static',
    tech: 'Bootstrap 5 admin template (Font Awesome SVG icons)',
    pages: ['dist/index.html', 'dist/login.html', 'dist/register.html', 'dist/tables.html'],
  },
  {
    id: 'agency',
    pkg: 'startbootstrap-agency',
    kind: 'static',
    tech: 'Bootstrap 5 one-page theme',
    pages: ['dist/index.html'],
  },
  {
    id: 'swagger-ui',
    pkg: 'swagger-ui-dist',
    kind: 'spa',
    tech: 'React single-page app (swagger-ui-dist bundle) on a local OpenAPI document',
    readySelector: '.opblock',
    pages: ['index.html'],
  },
  {
    id: 'redoc',
    pkg: 'redoc',
    kind: 'spa',
    tech: 'React single-page app (redoc standalone bundle) on a local OpenAPI document',
    readySelector: '.menu-content li',
    pages: ['index.html'],
  },
]

/** The pages of these kits. */
export const pagesOf = (kits: readonly CorpusKit[]): CorpusPage[] =>
  kits.flatMap((kit) => kit.pages.map((path) => ({ kit: kit.id, id: `${kit.id}/${path}`, path, kind: kit.kind })))

export const corpusPages: readonly CorpusPage[] = pagesOf(corpusKits)
