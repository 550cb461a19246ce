/**
 * The truth of bench/upgrades, written by hand (issue 31): for each target on release N, the control a person
 * who knows the app calls the same on release N+1, with a one-line reason; `GONE` when the function no longer
 * exists. Selectors are checked by the bench to match exactly one element on their side. Targets a person could
 * not map with confidence are not listed (ambiguous: left out of the score).
 */
import { GONE, type TruthPage } from './truth-types.js'

export const truthPages: readonly TruthPage[] = [
  // ---------- SB Admin 6.0.2 (Bootstrap 4) → 7.0.7 (Bootstrap 5) ----------
  {
    pair: 'sb-admin-6-7',
    page: 'dist/index.html',
    steps: [
      {
        act: 'type',
        from: 'input[aria-label="Search"]',
        to: 'input[aria-label="Search for..."]',
        text: 'revenue',
        why: 'the navbar search field (aria-label reworded)',
      },
      {
        act: 'click',
        from: 'form.d-md-inline-block button.btn-primary',
        to: '#btnNavbarSearch',
        why: 'the navbar search icon button beside the field',
      },
      {
        act: 'click',
        from: '#userDropdown',
        to: '#navbarDropdown',
        why: 'the user icon dropdown toggle (id renamed, data-toggle → data-bs-toggle)',
      },
      {
        act: 'click',
        from: 'a.dropdown-item:has-text("Activity Log")',
        to: 'a.dropdown-item:has-text("Activity Log")',
        why: 'the user menu item Activity Log',
      },
      {
        act: 'click',
        from: 'a[data-target="#collapseLayouts"]',
        to: 'a[data-bs-target="#collapseLayouts"]',
        why: 'the sidebar Layouts group toggle',
      },
      {
        act: 'click',
        from: 'a[data-target="#collapsePages"]',
        to: 'a[data-bs-target="#collapsePages"]',
        why: 'the sidebar Pages group toggle',
      },
      {
        act: 'click',
        from: ':nth-match(a.stretched-link, 2)',
        to: ':nth-match(a.stretched-link, 2)',
        why: 'View Details of the second (warning) card',
      },
      {
        act: 'select',
        from: 'select[name="dataTable_length"]',
        to: 'select.datatable-selector',
        value: '25',
        why: 'the entries-per-page choice of the data table (DataTables → simple-datatables)',
      },
      {
        act: 'type',
        from: '#dataTable_filter input',
        to: 'input.datatable-input',
        text: 'Tokyo',
        why: 'the data table search field',
      },
      {
        act: 'click',
        from: '#sidebarToggle',
        to: '#sidebarToggle',
        why: 'the sidebar toggle (hamburger) in the top bar',
      },
    ],
  },
  {
    pair: 'sb-admin-6-7',
    page: 'dist/login.html',
    steps: [
      {
        act: 'type',
        from: '#inputEmailAddress',
        to: '#inputEmail',
        text: 'ann@example.com',
        why: 'the email field (now a floating label, id renamed)',
      },
      {
        act: 'click',
        from: 'label[for="rememberPasswordCheck"]',
        to: '#inputRememberPassword',
        why: 'the Remember password checkbox (custom-control → form-check)',
      },
      { act: 'click', from: 'a:has-text("Login")', to: 'a.btn-primary:has-text("Login")', why: 'the Login button' },
    ],
  },
  {
    pair: 'sb-admin-6-7',
    page: 'dist/register.html',
    steps: [
      { act: 'type', from: '#inputFirstName', to: '#inputFirstName', text: 'Ann', why: 'First name field' },
      { act: 'type', from: '#inputLastName', to: '#inputLastName', text: 'Lee', why: 'Last name field' },
      {
        act: 'type',
        from: '#inputEmailAddress',
        to: '#inputEmail',
        text: 'ann@example.com',
        why: 'the email field (id renamed)',
      },
      {
        act: 'click',
        from: 'a:has-text("Create Account")',
        to: 'a:has-text("Create Account")',
        why: 'the Create Account button',
      },
    ],
  },
  {
    pair: 'sb-admin-6-7',
    page: 'dist/password.html',
    steps: [
      {
        act: 'type',
        from: '#inputEmailAddress',
        to: '#inputEmail',
        text: 'ann@example.com',
        why: 'the email field of the reset form',
      },
      {
        act: 'click',
        from: 'a:has-text("Reset Password")',
        to: 'a:has-text("Reset Password")',
        why: 'the Reset Password button',
      },
    ],
  },
  {
    pair: 'sb-admin-6-7',
    page: 'dist/tables.html',
    steps: [
      {
        act: 'type',
        from: '#dataTable_filter input',
        to: 'input.datatable-input',
        text: 'London',
        why: 'the data table search field',
      },
      {
        act: 'select',
        from: 'select[name="dataTable_length"]',
        to: 'select.datatable-selector',
        value: '50',
        why: 'the entries-per-page choice (50 is not offered any more: 5…25)',
      },
      {
        act: 'click',
        from: 'thead th:has-text("Office")',
        to: 'a.datatable-sorter:has-text("Office")',
        why: 'sort by the Office column',
      },
      {
        act: 'click',
        from: 'a[data-target="#collapsePages"]',
        to: 'a[data-bs-target="#collapsePages"]',
        why: 'the sidebar Pages group toggle',
      },
      {
        act: 'click',
        from: 'a.nav-link:has-text("Charts")',
        to: 'a.nav-link:has-text("Charts")',
        why: 'the sidebar Charts link',
      },
    ],
  },
]

void GONE
