import { describe, expect, it } from 'vitest'
import { pageScriptTag } from './page-script'
import { rewriteExternal } from './start-corpus-server'

describe('rewriteExternal', () => {
  it('answers CDN files locally and blocks every other external resource, but leaves links alone', () => {
    const html = [
      '<script src="https://cdn.jsdelivr.net/npm/bootstrap@5.2.3/dist/js/bootstrap.bundle.min.js"></script>',
      '<script src="https://use.fontawesome.com/releases/v6.3.0/js/all.js" crossorigin="anonymous"></script>',
      '<link href="https://fonts.googleapis.com/css?family=Roboto" rel="stylesheet">',
      '<div style="background-image: url(\'https://images.unsplash.com/x.jpg\')"></div>',
      '<a href="https://github.com/x">GitHub</a>',
    ].join('\n')
    const out = rewriteExternal(html)
    expect(out).toContain('src="/__npm/bootstrap/dist/js/bootstrap.bundle.min.js"')
    expect(out).toContain('src="/__npm/@fortawesome/fontawesome-free/js/all.js"')
    expect(out).toContain('href="/__blocked?u=https%3A%2F%2Ffonts.googleapis.com%2Fcss%3Ffamily%3DRoboto"')
    expect(out).toContain("url('/__blocked?u=https%3A%2F%2Fimages.unsplash.com%2Fx.jpg')")
    expect(out).toContain('<a href="https://github.com/x">')
  })
})

describe('pageScriptTag', () => {
  it('is one inline script carrying the config, which cannot close the tag early', () => {
    const tag = pageScriptTag({ ops: ['layout-shift'], remove: ['</script><b>'], seed: 3, run: 'r1', api: '' })
    expect(tag.match(/<\/script/gi)).toHaveLength(1)
    expect(tag).toContain('"ops":["layout-shift"]')
  })
})
