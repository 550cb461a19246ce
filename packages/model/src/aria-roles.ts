/**
 * Roles that take their accessible name from their content (WAI-ARIA 1.2 "name from: contents"): a button, link
 * or tab is named by the text it holds; a toolbar, list, region or textbox is not. The one list for the page's
 * approximation of the accessible name (the recorder's page scripts) and for the matcher's label agreement, which
 * adds roles of text a person reads as what the element is.
 */
export const ARIA_NAME_FROM_CONTENT_ROLES: readonly string[] = [
  'button',
  'cell',
  'checkbox',
  'columnheader',
  'gridcell',
  'heading',
  'link',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'radio',
  'row',
  'rowheader',
  'switch',
  'tab',
  'tooltip',
  'treeitem',
]
