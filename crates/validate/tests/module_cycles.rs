//! No crate of the workspace has modules that import each other in a cycle: a module can be
//! read knowing only the modules below it (docs/architecture.md, "Layers").
//!
//! The graph is the one between the top-level modules of each crate (`src/NAME.rs` or
//! `src/NAME/…`, the crate root left out: it declares and re-exports everything). An edge
//! `a → b` is a path `crate::b…` (or `crate::{b…}`) in the code of `a`, outside comments and
//! literals. `super::` paths stay within a module's own subtree and are not edges.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// `text` with comments and string and character literals blanked out (newlines kept, so line
/// numbers still hold).
fn code_only(text: &str) -> String {
    let c: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let blank = |out: &mut String, ch: char| out.push(if ch == '\n' { '\n' } else { ' ' });
    let mut i = 0;
    while i < c.len() {
        let next = c.get(i + 1).copied();
        if c[i] == '/' && next == Some('/') {
            while i < c.len() && c[i] != '\n' {
                blank(&mut out, c[i]);
                i += 1;
            }
        } else if c[i] == '/' && next == Some('*') {
            let mut depth = 0;
            while i < c.len() {
                if c[i] == '/' && c.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if c[i] == '*' && c.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    blank(&mut out, c[i]);
                    i += 1;
                }
            }
        } else if c[i] == 'r'
            && (next == Some('"') || next == Some('#'))
            && (i == 0 || !(c[i - 1].is_alphanumeric() || c[i - 1] == '_'))
        {
            // A raw string: r"…", r#"…"#.
            let mut j = i + 1;
            let mut hashes = 0;
            while c.get(j) == Some(&'#') {
                hashes += 1;
                j += 1;
            }
            if c.get(j) != Some(&'"') {
                out.push(c[i]);
                i += 1;
                continue;
            }
            j += 1;
            while j < c.len() {
                if c[j] == '"' && (0..hashes).all(|k| c.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            for &ch in &c[i..j.min(c.len())] {
                blank(&mut out, ch);
            }
            i = j;
        } else if c[i] == '"' {
            blank(&mut out, c[i]);
            i += 1;
            while i < c.len() && c[i] != '"' {
                if c[i] == '\\' {
                    blank(&mut out, c[i]);
                    i += 1;
                }
                if i < c.len() {
                    blank(&mut out, c[i]);
                    i += 1;
                }
            }
            if i < c.len() {
                blank(&mut out, c[i]);
                i += 1;
            }
        } else if c[i] == '\'' && (next == Some('\\') || c.get(i + 2) == Some(&'\'')) {
            // A character literal ('x', '"', '\n', '\u{1F600}'); not a lifetime.
            let mut j = i + 1;
            if c.get(j) == Some(&'\\') {
                j += 2;
            }
            while j < c.len() && c[j] != '\'' {
                j += 1;
            }
            for &ch in &c[i..(j + 1).min(c.len())] {
                blank(&mut out, ch);
            }
            i = j + 1;
        } else {
            out.push(c[i]);
            i += 1;
        }
    }
    out
}

fn ident_at(c: &[char], mut i: usize) -> (String, usize) {
    let mut s = String::new();
    while i < c.len() && (c[i].is_alphanumeric() || c[i] == '_') {
        s.push(c[i]);
        i += 1;
    }
    (s, i)
}

fn skip_ws(c: &[char], mut i: usize) -> usize {
    while i < c.len() && c[i].is_whitespace() {
        i += 1;
    }
    i
}

/// The first path segments after each `crate::` in `code` (inside `crate::{…}`, the first
/// segment of each item), with their 1-based line numbers.
fn crate_paths(code: &str) -> Vec<(String, usize)> {
    let c: Vec<char> = code.chars().collect();
    // line_at[i]: the 1-based line of character i.
    let mut line_at = Vec::with_capacity(c.len());
    let mut line = 1;
    for ch in &c {
        line_at.push(line);
        if *ch == '\n' {
            line += 1;
        }
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < c.len() {
        let starts = c[i..].starts_with(&['c', 'r', 'a', 't', 'e'])
            && (i == 0 || !(c[i - 1].is_alphanumeric() || c[i - 1] == '_'));
        if !starts {
            i += 1;
            continue;
        }
        let j = skip_ws(&c, i + 5);
        if !(c.get(j) == Some(&':') && c.get(j + 1) == Some(&':')) {
            i += 5;
            continue;
        }
        let j = skip_ws(&c, j + 2);
        if c.get(j) == Some(&'{') {
            // `crate::{a::X, b, c::{…}}`: the first segment of each top-level item.
            let mut depth = 0;
            let mut k = j;
            let mut expect_item = true;
            while k < c.len() {
                match c[k] {
                    '{' => {
                        depth += 1;
                        expect_item = depth == 1;
                        k += 1;
                    }
                    '}' => {
                        depth -= 1;
                        k += 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    ',' if depth == 1 => {
                        expect_item = true;
                        k += 1;
                    }
                    ch if expect_item && depth == 1 && (ch.is_alphanumeric() || ch == '_') => {
                        let (name, e) = ident_at(&c, k);
                        out.push((name, line_at[k]));
                        expect_item = false;
                        k = e;
                    }
                    _ => k += 1,
                }
            }
            i = k;
        } else {
            let (name, e) = ident_at(&c, j);
            if !name.is_empty() {
                out.push((name, line_at[j]));
            }
            i = e.max(i + 5);
        }
    }
    out
}

/// Every `.rs` file under `dir`.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// An edge with where it was seen (file and line).
type Graph = BTreeMap<String, BTreeMap<String, String>>;

/// The top-level module graph of the crate whose sources are in `src`.
fn module_graph(src: &Path) -> Graph {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    files.sort();
    let module_of = |p: &Path| -> Option<String> {
        let rel = p.strip_prefix(src).ok()?;
        let first = rel
            .components()
            .next()?
            .as_os_str()
            .to_string_lossy()
            .into_owned();
        let name = first.strip_suffix(".rs").unwrap_or(&first).to_string();
        (!matches!(name.as_str(), "lib" | "main")).then_some(name)
    };
    let modules: BTreeSet<String> = files.iter().filter_map(|p| module_of(p)).collect();
    let mut g = Graph::new();
    for f in &files {
        let Some(from) = module_of(f) else { continue };
        let text = std::fs::read_to_string(f).unwrap_or_default();
        for (to, line) in crate_paths(&code_only(&text)) {
            if to != from && modules.contains(&to) {
                g.entry(from.clone())
                    .or_default()
                    .entry(to)
                    .or_insert_with(|| format!("{}:{line}", f.display()));
            }
        }
    }
    g
}

/// The strongly connected components of `g` with more than one module (Tarjan).
fn cycles(g: &Graph) -> Vec<Vec<String>> {
    struct T<'a> {
        g: &'a Graph,
        index: BTreeMap<&'a str, usize>,
        low: BTreeMap<&'a str, usize>,
        stack: Vec<&'a str>,
        on: BTreeSet<&'a str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'a>(t: &mut T<'a>, v: &'a str) {
        let n = t.index.len();
        t.index.insert(v, n);
        t.low.insert(v, n);
        t.stack.push(v);
        t.on.insert(v);
        if let Some(succ) = t.g.get(v) {
            for w in succ.keys() {
                let w = w.as_str();
                if !t.index.contains_key(w) {
                    visit(t, w);
                    let lw = t.low[w];
                    let lv = t.low.get_mut(v).unwrap();
                    *lv = (*lv).min(lw);
                } else if t.on.contains(w) {
                    let iw = t.index[w];
                    let lv = t.low.get_mut(v).unwrap();
                    *lv = (*lv).min(iw);
                }
            }
        }
        if t.low[v] == t.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = t.stack.pop() {
                t.on.remove(w);
                comp.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                t.out.push(comp);
            }
        }
    }
    let mut t = T {
        g,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    let nodes: BTreeSet<&str> = g
        .iter()
        .flat_map(|(a, s)| std::iter::once(a.as_str()).chain(s.keys().map(String::as_str)))
        .collect();
    for v in nodes {
        if !t.index.contains_key(v) {
            visit(&mut t, v);
        }
    }
    t.out
}

#[test]
fn no_crate_has_a_module_import_cycle() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .expect("repository root");
    let mut srcs: Vec<PathBuf> = std::fs::read_dir(root.join("crates"))
        .expect("crates/")
        .flatten()
        .map(|e| e.path().join("src"))
        .chain([root.join("bench/src"), root.join("bench/emu-ptoxide/src")])
        .filter(|p| p.is_dir())
        .collect();
    srcs.sort();
    assert!(srcs.len() >= 10, "found only {srcs:?}");
    let mut report = String::new();
    for src in &srcs {
        let g = module_graph(src);
        for comp in cycles(&g) {
            let name = src.strip_prefix(&root).unwrap_or(src);
            report.push_str(&format!("{}: {}\n", name.display(), comp.join(" ↔ ")));
            for a in &comp {
                for (b, at) in &g[a] {
                    if comp.contains(b) {
                        let at = at
                            .strip_prefix(&format!("{}/", root.display()))
                            .unwrap_or(at);
                        report.push_str(&format!("    {a} → {b} at {at}\n"));
                    }
                }
            }
        }
    }
    assert!(
        report.is_empty(),
        "module import cycles (move what both sides use into a module below them):\n{report}"
    );
}

#[test]
fn paths_are_read_from_code_only() {
    let src = "use crate::a::X;\nuse crate::{b::{Y, Z}, c, d::W};\n// crate::e in a comment\n\
               let s = \"crate::f\"; let q = '\"'; let r = r#\"crate::g\"#;\n/* crate::h /* nested */ */\n\
               fn k<'a>(x: &'a crate::i::T) {}\nlet m = $crate::j::f();\n\
               use crate::{\n    k,\n    l::Z,\n};\n";
    let got: Vec<(String, usize)> = crate_paths(&code_only(src));
    let want: Vec<(String, usize)> = [
        ("a", 1),
        ("b", 2),
        ("c", 2),
        ("d", 2),
        ("i", 6),
        ("j", 7),
        ("k", 9),
        ("l", 10),
    ]
    .iter()
    .map(|(n, l)| (n.to_string(), *l))
    .collect();
    assert_eq!(got, want);
}

#[test]
fn finds_cycles_and_only_cycles() {
    let edge = |pairs: &[(&str, &str)]| -> Graph {
        let mut g = Graph::new();
        for (a, b) in pairs {
            g.entry(a.to_string())
                .or_default()
                .insert(b.to_string(), String::new());
        }
        g
    };
    let g = edge(&[
        ("acf", "poly"),
        ("poly", "expr"),
        ("eval", "acf"),
        ("acf", "expr"),
    ]);
    assert!(cycles(&g).is_empty());
    let g = edge(&[
        ("acf", "eval"),
        ("eval", "poly"),
        ("poly", "acf"),
        ("checks", "acf"),
    ]);
    assert_eq!(cycles(&g), vec![vec!["acf", "eval", "poly"]]);
}
