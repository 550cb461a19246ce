/**
 * Icon class names across icon-set releases (seen on real template upgrades, bench/upgrades): Font Awesome 6 renamed many icons of
 * Font Awesome 4/5 (`fa-search` → `fa-magnifying-glass`, `fa-cog` → `fa-gear`), so a page upgraded from FA5 to
 * FA6 shows the same glyph under another class. Each pair below is one icon in both releases (Font Awesome's
 * own v6 upgrade list, where the old name stays an alias); the matcher compares icons by their FA6 name.
 * Classes that size or draw an icon and name none (`fa-w-16` of FA5's SVG icons, `fa-fw`) are not icons.
 */
const FONT_AWESOME_6_RENAMES: Readonly<Record<string, string>> = {
  search: 'magnifying-glass',
  'search-plus': 'magnifying-glass-plus',
  'search-minus': 'magnifying-glass-minus',
  times: 'xmark',
  close: 'xmark',
  remove: 'xmark',
  'times-circle': 'circle-xmark',
  cog: 'gear',
  cogs: 'gears',
  home: 'house',
  'sign-out-alt': 'right-from-bracket',
  'sign-in-alt': 'right-to-bracket',
  'sign-out': 'arrow-right-from-bracket',
  'sign-in': 'arrow-right-to-bracket',
  edit: 'pen-to-square',
  'pencil-alt': 'pencil',
  'trash-alt': 'trash-can',
  'user-circle': 'circle-user',
  'user-cog': 'user-gear',
  'tachometer-alt': 'gauge-high',
  tachometer: 'gauge-simple-high',
  'exclamation-triangle': 'triangle-exclamation',
  'exclamation-circle': 'circle-exclamation',
  'info-circle': 'circle-info',
  'check-circle': 'circle-check',
  'question-circle': 'circle-question',
  'plus-circle': 'circle-plus',
  'minus-circle': 'circle-minus',
  'arrow-circle-right': 'circle-arrow-right',
  'arrow-circle-left': 'circle-arrow-left',
  'chevron-circle-right': 'circle-chevron-right',
  'chevron-circle-left': 'circle-chevron-left',
  'ellipsis-h': 'ellipsis',
  'ellipsis-v': 'ellipsis-vertical',
  'shopping-cart': 'cart-shopping',
  'calendar-alt': 'calendar-days',
  'file-alt': 'file-lines',
  'external-link-alt': 'up-right-from-square',
  'sync-alt': 'rotate',
  sync: 'arrows-rotate',
  redo: 'arrow-rotate-right',
  undo: 'arrow-rotate-left',
  'phone-alt': 'phone-flip',
  'map-marker-alt': 'location-dot',
  'mobile-alt': 'mobile-screen-button',
  'angle-double-right': 'angles-right',
  'angle-double-left': 'angles-left',
  tasks: 'list-check',
  'list-alt': 'rectangle-list',
  'comment-alt': 'message',
  th: 'table-cells',
  'th-large': 'table-cells-large',
  'th-list': 'table-list',
  save: 'floppy-disk',
  'share-alt': 'share-nodes',
  'unlock-alt': 'unlock-keyhole',
  'envelope-open-text': 'envelope-open-text',
  columns: 'table-columns',
}

/** FA5 SVG and font modifiers that name no icon: width (`fa-w-16`), fixed width, size, animation. */
const NOT_AN_ICON =
  /^fa-(w-\d+|fw|lg|xs|sm|\dx|spin|pulse|border|inverse|li|stack(-\dx)?|pull-\w+|flip-\w+|rotate-\d+)$/

/** The icon a class names, in the newest name its icon set gives it; null for a modifier class. */
export function canonicalIconClass(cls: string): string | null {
  if (NOT_AN_ICON.test(cls)) return null
  const fa = /^fa-(.+)$/.exec(cls)
  if (fa?.[1]) return `fa-${FONT_AWESOME_6_RENAMES[fa[1]] ?? fa[1]}`
  return cls
}

/** The icons of a class list by their newest names, modifiers left out. */
export function canonicalIconClasses(classes: readonly string[] | null | undefined): string[] {
  const out: string[] = []
  for (const c of classes ?? []) {
    const k = canonicalIconClass(c)
    if (k && !out.includes(k)) out.push(k)
  }
  return out
}
