#!/usr/bin/env node
// Lists import cycles between the files of each Rust crate under server/: file A depends on
// file B when A names an item of B's module — through `use` or a path in its code (`crate::…`,
// `super::…`, `self::…`, or a child module's name) — following `pub use` re-exports to where an
// item is defined. A `pub use` itself is a facade for the crate's users, not a dependency. Test
// code (`tests.rs`, `*_tests.rs`, an item marked `#[cfg(test)]`) is left out: a test may read
// its parent. Exits 1 when any crate has a cycle, printing each as the files that form it.
//
//   node scripts/import-cycles.mjs            # every crate
//   node scripts/import-cycles.mjs --graph    # also print each crate's edges
import { readdirSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'server')
const showGraph = process.argv.includes('--graph')

/** Every .rs file under `dir`. */
function rustFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name)
    if (statSync(full).isDirectory()) return rustFiles(full)
    return name.endsWith('.rs') ? [full] : []
  })
}

/** The module path of a file relative to src/: lib.rs → [], a/mod.rs and a.rs → [a], a/b.rs → [a, b]. */
function modulePath(rel) {
  const parts = rel.replace(/\.rs$/, '').split(path.sep)
  const last = parts[parts.length - 1]
  if (parts.length === 1 && (last === 'lib' || last === 'main')) return []
  if (last === 'mod') parts.pop()
  return parts
}

const isTestFile = (rel) => /(^|[/_])tests?\.rs$/.test(rel) || /_tests\.rs$/.test(rel) || rel.split(path.sep).includes('tests')

/**
 * The code of `text` without comments, string and char literals (in one pass, so `"//"` in a
 * string or `"` in a comment cannot hide code) and without test code.
 */
function code(text) {
  let out = ''
  let i = 0
  while (i < text.length) {
    const c = text[i]
    const next = text[i + 1]
    if (c === '/' && next === '/') {
      while (i < text.length && text[i] !== '\n') i++
    } else if (c === '/' && next === '*') {
      let depth = 1
      i += 2
      while (i < text.length && depth > 0) {
        if (text[i] === '/' && text[i + 1] === '*') (depth++, (i += 2))
        else if (text[i] === '*' && text[i + 1] === '/') (depth--, (i += 2))
        else i++
      }
      out += ' '
    } else if (c === 'r' && /^r#*"/.test(text.slice(i, i + 20)) && !/\w/.test(text[i - 1] ?? '')) {
      const hashes = text.slice(i + 1).match(/^#*/)[0]
      const end = text.indexOf('"' + hashes, i + 2 + hashes.length)
      i = end < 0 ? text.length : end + 1 + hashes.length
      out += '""'
    } else if (c === '"') {
      i++
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1
      i++
      out += '""'
    } else if (c === "'" && /^'(\\.|[^\\'])'/.test(text.slice(i, i + 4))) {
      // A char literal ('"', '\''); a lifetime ('a) is left as it is.
      i += text[i + 1] === '\\' ? 4 : 3
      out += "' '"
    } else {
      out += c
      i++
    }
  }
  return withoutTestItems(out)
}

/** `code` without each item marked `#[cfg(test)]` (a `mod tests;`, or a braced block). */
function withoutTestItems(code) {
  let out = ''
  let from = 0
  for (;;) {
    const at = code.indexOf('#[cfg(test)]', from)
    if (at < 0) return out + code.slice(from)
    out += code.slice(from, at)
    const semi = code.indexOf(';', at)
    const brace = code.indexOf('{', at)
    if (brace < 0 || (semi >= 0 && semi < brace)) {
      from = semi < 0 ? code.length : semi + 1
      continue
    }
    let depth = 0
    let i = brace
    for (; i < code.length; i++) {
      if (code[i] === '{') depth++
      else if (code[i] === '}' && --depth === 0) break
    }
    from = i + 1
  }
}

/** The paths a `use` tree names, expanded: `a::{b, c::{d, self}}` → a::b, a::c::d, a::c. */
function expandUse(tree) {
  tree = tree.replace(/\s+/g, '')
  const brace = tree.indexOf('{')
  if (brace < 0) return [tree.replace(/::self$/, '').replace(/\bas\w+$/, '')]
  const prefix = tree.slice(0, brace)
  const inner = tree.slice(brace + 1, tree.lastIndexOf('}'))
  const items = []
  let depth = 0
  let start = 0
  for (let i = 0; i < inner.length; i++) {
    if (inner[i] === '{') depth++
    else if (inner[i] === '}') depth--
    else if (inner[i] === ',' && depth === 0) {
      items.push(inner.slice(start, i))
      start = i + 1
    }
  }
  items.push(inner.slice(start))
  return items.filter(Boolean).flatMap((item) => (item === 'self' ? [prefix.replace(/::$/, '')] : expandUse(prefix + item)))
}

function analyse(crateDir) {
  const src = path.join(crateDir, 'src')
  const files = rustFiles(src)
    .map((full) => path.relative(src, full))
    .filter((rel) => !isTestFile(rel) && !rel.startsWith('bin' + path.sep))
  const byModule = new Map()
  const info = new Map()
  for (const rel of files) {
    const mod = modulePath(rel)
    byModule.set(mod.join('::'), rel)
    const text = code(readFileSync(path.join(src, rel), 'utf8'))
    const children = new Set([...text.matchAll(/\bmod\s+(\w+)\s*;/g)].map((m) => m[1]))
    // `pub use` re-exports a child's item for the crate's users: a facade, not a use of it here.
    const uses = [...text.matchAll(/(?<!\bpub(?:\([^)]*\))?\s+)\buse\s+([^;]+);/g)].flatMap((m) => expandUse(m[1]))
    const reexports = new Map()
    for (const m of text.matchAll(/\bpub(?:\([^)]*\))?\s+use\s+([^;]+);/g)) {
      for (const p of expandUse(m[1])) {
        const alias = p.match(/as(\w+)$/)
        const target = p.replace(/as\w+$/, '')
        reexports.set(alias ? alias[1] : target.split('::').pop(), target)
      }
    }
    info.set(rel, { mod, text, children, uses, reexports })
  }

  /** Absolute module path segments for `p` as written in the module `mod`, or null when outside the crate. */
  function absolute(p, mod, children) {
    const seg = p.split('::').filter(Boolean)
    if (seg[0] === 'crate') return seg.slice(1)
    let base = [...mod]
    let i = 0
    if (seg[0] === 'self') return [...base, ...seg.slice(1)]
    while (seg[i] === 'super') {
      base = base.slice(0, -1)
      i++
    }
    if (i > 0) return [...base, ...seg.slice(i)]
    if (children.has(seg[0])) return [...mod, ...seg]
    return null
  }

  /** The file that defines the item `segs` names, following re-exports (at most 8 hops). */
  function resolve(segs, hops = 0) {
    for (let n = segs.length; n >= 0; n--) {
      const file = byModule.get(segs.slice(0, n).join('::'))
      if (file === undefined) continue
      const rest = segs.slice(n)
      const reexport = rest.length > 0 && info.get(file).reexports.get(rest[0])
      if (reexport && hops < 8) {
        const target = absolute(reexport, info.get(file).mod, info.get(file).children)
        if (target) return resolve([...target, ...rest.slice(1)], hops + 1)
      }
      return file
    }
    return undefined
  }

  const edges = new Map(files.map((f) => [f, new Set()]))
  for (const [rel, { mod, text, children, uses }] of info) {
    const body = text.replace(/\bpub(?:\([^)]*\))?\s+use\s+[^;]+;/g, ' ').replace(/\buse\s+[^;]+;/g, ' ')
    const written = [...uses, ...[...body.matchAll(/\b((?:crate|super|self|\w+)(?:::\w+)+)/g)].map((m) => m[1])]
    for (const p of written) {
      const segs = absolute(p, mod, children)
      if (!segs) continue
      const target = resolve(segs)
      if (target && target !== rel) edges.get(rel).add(target)
    }
  }
  return { files, edges }
}

/** Strongly connected components of more than one file (Tarjan). */
function cycles(files, edges) {
  let index = 0
  const stack = []
  const on = new Set()
  const idx = new Map()
  const low = new Map()
  const found = []
  function visit(v) {
    idx.set(v, index)
    low.set(v, index++)
    stack.push(v)
    on.add(v)
    for (const w of edges.get(v)) {
      if (!idx.has(w)) {
        visit(w)
        low.set(v, Math.min(low.get(v), low.get(w)))
      } else if (on.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)))
    }
    if (low.get(v) === idx.get(v)) {
      const component = []
      let w
      do {
        w = stack.pop()
        on.delete(w)
        component.push(w)
      } while (w !== v)
      if (component.length > 1) found.push(component.sort())
    }
  }
  for (const f of files) if (!idx.has(f)) visit(f)
  return found
}

let total = 0
for (const crate of readdirSync(root).sort()) {
  const dir = path.join(root, crate)
  if (!statSync(path.join(dir, 'Cargo.toml'), { throwIfNoEntry: false })) continue
  const { files, edges } = analyse(dir)
  if (showGraph) {
    for (const [from, to] of edges) for (const t of to) console.log(`${crate}: ${from} -> ${t}`)
  }
  for (const component of cycles(files, edges)) {
    total++
    console.log(`server/${crate}: import cycle among ${component.length} files:`)
    for (const f of component) {
      const inside = [...edges.get(f)].filter((t) => component.includes(t))
      console.log(`  src/${f} -> ${inside.map((t) => `src/${t}`).join(', ')}`)
    }
  }
}
if (total > 0) {
  console.log(`\n${total} import cycle${total === 1 ? '' : 's'}: a module others depend on should not depend back on them (move the shared part below both).`)
  process.exit(1)
}
console.log('no import cycles between the files of any crate')
