/**
 * Finds where a JSON text stops being valid (0-based offset), for error messages: V8's own messages do not
 * always carry a position. Returns -1 when the text is valid JSON.
 */
export function locateJsonError(text: string): number {
  let i = 0
  const ws = () => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t')) i++
  }
  const fail = (): never => {
    throw i
  }
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length
    else fail()
  }
  const string = () => {
    i++ // opening quote
    while (i < text.length) {
      const c = text.charCodeAt(i)
      if (c === 0x22) {
        i++
        return
      }
      if (c < 0x20) fail()
      if (c === 0x5c) {
        i++
        const e = text[i]
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail()
          i += 5
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i++
        else fail()
      } else i++
    }
    fail()
  }
  const number = () => {
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400))
    if (!m || m[0] === '' || m[0] === '-') fail()
    i += m![0].length
  }
  const value = (): void => {
    ws()
    const c = text[i]
    if (c === '{') {
      i++
      ws()
      if (text[i] === '}') {
        i++
        return
      }
      for (;;) {
        ws()
        if (text[i] !== '"') fail()
        string()
        ws()
        if (text[i] !== ':') fail()
        i++
        value()
        ws()
        if (text[i] === ',') {
          i++
          continue
        }
        if (text[i] === '}') {
          i++
          return
        }
        fail()
      }
    }
    if (c === '[') {
      i++
      ws()
      if (text[i] === ']') {
        i++
        return
      }
      for (;;) {
        value()
        ws()
        if (text[i] === ',') {
          i++
          continue
        }
        if (text[i] === ']') {
          i++
          return
        }
        fail()
      }
    }
    if (c === '"') {
      string()
      return
    }
    if (c === 't') {
      literal('true')
      return
    }
    if (c === 'f') {
      literal('false')
      return
    }
    if (c === 'n') {
      literal('null')
      return
    }
    if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) {
      number()
      return
    }
    fail()
  }
  try {
    value()
    ws()
    return i === text.length ? -1 : i
  } catch (offset) {
    return typeof offset === 'number' ? offset : 0
  }
}
