//! Launches in the host code of a CUDA source: `kernel<<<grid, block>>>(args...)` sites, with
//! `grid` and `block` when they are integer constants or `dim3` values built from constants,
//! `#define`d macros, `const`/`constexpr` integers and plain integer variables assigned before
//! the launch, and each argument's value when it is a compile-time integer constant (a literal,
//! a macro, a `const`/`constexpr` integer or an enumerator, or arithmetic of those; a plain
//! variable is not one, since host code may change it). What cannot be resolved (a size read
//! at run time) stays unknown.
//!
//! This reads the source text as written (comments and strings removed, object-like macros
//! expanded, macros and constants of `#include "..."`d headers read when the caller can find
//! them): enough for the launch sites real code writes, with no preprocessor run.

use std::collections::{HashMap, HashSet};

/// One `<<<...>>>` launch of a kernel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LaunchSite {
    /// The kernel's name as written (last `::` segment, template arguments dropped).
    pub kernel: String,
    /// 1-based line of the launch.
    pub line: u32,
    /// Blocks per grid, when every dimension resolved.
    pub grid: Option<[u32; 3]>,
    /// Threads per block, when every dimension resolved.
    pub block: Option<[u32; 3]>,
    /// The arguments in order, each with its value when it is a compile-time integer
    /// constant.
    pub args: Vec<LaunchArg>,
}

/// One argument of a launch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LaunchArg {
    /// The argument as written (comments removed, whitespace collapsed).
    pub text: String,
    /// Its value, when it is a compile-time integer constant.
    pub value: Option<i64>,
}

/// Most headers read through `#include "..."` for one source (nested includes count).
const MAX_HEADERS: usize = 64;

/// Every launch site of `source` (in source order).
pub fn launch_sites(source: &str) -> Vec<LaunchSite> {
    launch_sites_with(source, &|_, _| None)
}

/// Finds a header: `(NAME, INCLUDER)` to the header's key (a path) and text, `INCLUDER` being
/// the key of the file that includes it (`""` for the source itself); `None` when not found.
pub type IncludeResolver<'a> = &'a dyn Fn(&str, &str) -> Option<(String, String)>;

/// Every launch site of `source` (in source order), with the macros and constants of the
/// headers it includes with `#include "NAME"`, found by `include`.
pub fn launch_sites_with(source: &str, include: IncludeResolver<'_>) -> Vec<LaunchSite> {
    let text = strip_comments_and_strings(source);
    let mut env = Env::default();
    // Headers first (what they define comes before the includer's own text), breadth first.
    let mut queue: Vec<(String, String)> = includes_of(source)
        .into_iter()
        .map(|n| (n, String::new()))
        .collect();
    let mut seen: Vec<String> = Vec::new();
    let mut k = 0;
    while k < queue.len() && seen.len() < MAX_HEADERS {
        let (name, from) = queue[k].clone();
        k += 1;
        let Some((key, htext)) = include(&name, &from) else {
            continue;
        };
        if seen.contains(&key) {
            continue;
        }
        seen.push(key.clone());
        queue.extend(includes_of(&htext).into_iter().map(|n| (n, key.clone())));
        let stripped = strip_comments_and_strings(&htext);
        env.collect_macros(&stripped);
        env.headers.push_str(&stripped);
        env.headers.push_str("\n;\n");
    }
    env.collect_macros(&text);
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut pos = 0;
    while let Some(off) = text[pos..].find("<<<") {
        let at = pos + off;
        pos = at + 3;
        let Some(close) = text[pos..].find(">>>") else {
            break;
        };
        let args_text = &text[pos..pos + close];
        let Some(kernel) = kernel_before(&text[..at]) else {
            continue;
        };
        let line = 1 + bytes[..at].iter().filter(|&&b| b == b'\n').count() as u32;
        // Variables as assigned before the launch (text order: good enough for straight-line
        // host code, which is what launches sit in).
        let before = &text[..at];
        let args = split_top(args_text);
        let dims = |i: usize| args.get(i).and_then(|a| env.dim3_at(a.trim(), before, 0));
        // The argument list after `>>>`.
        let after = &text[pos + close + 3..];
        let call_args = after
            .trim_start()
            .starts_with('(')
            .then(|| {
                let open = after.len() - after.trim_start().len();
                let end = matching(&after[open..])?;
                Some(&after[open + 1..open + end])
            })
            .flatten();
        let call_args = call_args
            .map(|a| {
                if a.trim().is_empty() {
                    Vec::new()
                } else {
                    split_top(a)
                        .into_iter()
                        .map(|x| LaunchArg {
                            text: x.split_whitespace().collect::<Vec<_>>().join(" "),
                            value: env.const_at(x, before, 0),
                        })
                        .collect()
                }
            })
            .unwrap_or_default();
        out.push(LaunchSite {
            kernel,
            line,
            grid: dims(0),
            block: dims(1),
            args: call_args,
        });
        pos += close + 3;
    }
    out
}

/// The kernel name ending just before `<<<`: `k`, `ns::k`, `k<T, 4>`.
fn kernel_before(s: &str) -> Option<String> {
    let t = s.trim_end();
    let t = if t.ends_with('>') {
        // Drop a template argument list.
        let mut depth = 0i32;
        let mut cut = None;
        for (i, c) in t.char_indices().rev() {
            match c {
                '>' => depth += 1,
                '<' => {
                    depth -= 1;
                    if depth == 0 {
                        cut = Some(i);
                        break;
                    }
                }
                _ => {}
            }
        }
        t[..cut?].trim_end()
    } else {
        t
    };
    let start = t
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .map_or(0, |i| i + 1);
    let name = &t[start..];
    (!name.is_empty() && !name.starts_with(|c: char| c.is_ascii_digit())).then(|| name.to_string())
}

/// Splits at commas outside parentheses, brackets and braces.
fn split_top(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut depth = 0i32;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&s[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&s[start..]);
    out
}

/// The names of the headers `source` includes with `#include "NAME"` (not `<NAME>`: system
/// headers hold no launch constants of the program).
pub fn includes_of(source: &str) -> Vec<String> {
    source
        .lines()
        .filter_map(|l| {
            let t = l.trim_start().strip_prefix('#')?.trim_start();
            let r = t.strip_prefix("include")?.trim_start().strip_prefix('"')?;
            let name = &r[..r.find('"')?];
            (!name.is_empty()).then(|| name.to_string())
        })
        .collect()
}

/// Comments and string/char literals replaced by spaces (newlines kept, so lines stay put).
fn strip_comments_and_strings(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                out.push(b' ');
                i += 1;
            }
        } else if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
            out.extend_from_slice(b"  ");
            i += 2;
            while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                out.push(if b[i] == b'\n' { b'\n' } else { b' ' });
                i += 1;
            }
            out.extend_from_slice(b"  ");
            i = (i + 2).min(b.len());
        } else if b[i] == b'"' || b[i] == b'\'' {
            let q = b[i];
            out.push(b' ');
            i += 1;
            while i < b.len() && b[i] != q && b[i] != b'\n' {
                if b[i] == b'\\' {
                    out.push(b' ');
                    i += 1;
                }
                if i < b.len() {
                    out.push(b' ');
                    i += 1;
                }
            }
            if i < b.len() {
                out.push(b' ');
                i += 1;
            }
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    // Only ASCII bytes were replaced by ASCII: still UTF-8.
    String::from_utf8(out).unwrap_or_default()
}

/// Macros and the text they are looked up in.
#[derive(Default)]
struct Env {
    macros: HashMap<String, String>,
    /// The included headers' text (comments and strings removed), where constants the source
    /// itself does not declare are looked up.
    headers: String,
    /// Macros defined more than once with different bodies (conditional compilation): never
    /// resolved.
    conflicting: HashSet<String>,
}

/// Nesting limit for macro and variable resolution (a self-referring macro ends here).
const MAX_DEPTH: u32 = 16;

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Whether `head` (the text before a name, trimmed) ends inside a declaration of several
/// `dim3` values, after a comma: `dim3 blocks,` or `dim3 grid(4, 4), block = dim3(8),`.
/// Whether a variable between `head` and `rest` is a whole argument of a function call
/// (`f(a, v)`, not a launch's `<<<g, v>>>` nor `v.x` nor `dim3(v)`), or has its address taken
/// (`&v`).
fn passed_to_a_call(head: &str, rest: &str) -> bool {
    let h = head.trim_end();
    if h.ends_with('&') && !h.ends_with("&&") {
        return true;
    }
    let r = rest.trim_start();
    if !(h.ends_with(['(', ',']) && r.starts_with([')', ','])) {
        return false;
    }
    // The innermost parenthesis still open before the variable, within the statement.
    let mut depth = 0u32;
    for (i, c) in h.char_indices().rev() {
        match c {
            ')' => depth += 1,
            '(' if depth > 0 => depth -= 1,
            '(' => {
                let callee = h[..i].trim_end();
                let word_start = callee
                    .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .map_or(0, |k| k + 1);
                let word = &callee[word_start..];
                return !word.is_empty()
                    && !word.starts_with(|c: char| c.is_ascii_digit())
                    && !matches!(
                        word,
                        "dim3" | "if" | "while" | "for" | "switch" | "return" | "sizeof"
                    );
            }
            ';' | '{' | '}' => return false,
            '<' if h[..i].ends_with("<<") => return false,
            _ => {}
        }
    }
    false
}

fn declarator_list_of_dim3(head: &str) -> bool {
    let Some(h) = head.strip_suffix(',') else {
        return false;
    };
    let balanced = |t: &str| {
        let mut level = 0i32;
        for c in t.chars() {
            match c {
                '(' | '{' | '[' => level += 1,
                ')' | '}' | ']' => level -= 1,
                _ => {}
            }
            if level < 0 {
                return false;
            }
        }
        level == 0
    };
    // The statement starts after one of the last few `;`, `{` or `}` (a brace may belong to
    // an initialiser of the list itself: `dim3 grid{4, 4}, threads;`).
    h.char_indices()
        .rev()
        .filter(|(_, c)| matches!(c, ';' | '{' | '}'))
        .map(|(i, _)| i + 1)
        .take(8)
        .chain(std::iter::once(0))
        .any(|start| {
            let stmt = h[start..].trim_start();
            !stmt.contains(';')
                && balanced(stmt)
                && stmt
                    .strip_prefix("dim3")
                    .is_some_and(|r| r.starts_with(char::is_whitespace))
        })
}

/// Positions where identifier `name` occurs as a whole word in `text`.
fn word_positions<'t>(text: &'t str, name: &'t str) -> impl Iterator<Item = usize> + 't {
    text.match_indices(name).filter_map(move |(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + name.len()..].chars().next();
        (!before.is_some_and(is_ident) && !after.is_some_and(is_ident)).then_some(i)
    })
}

impl Env {
    fn collect_macros(&mut self, text: &str) {
        let mut lines = text.lines();
        while let Some(line) = lines.next() {
            let t = line.trim_start();
            let Some(rest) = t.strip_prefix('#') else {
                continue;
            };
            let Some(rest) = rest.trim_start().strip_prefix("define") else {
                continue;
            };
            let mut body = rest.to_string();
            while body.trim_end().ends_with('\\') {
                body = body.trim_end().trim_end_matches('\\').to_string();
                match lines.next() {
                    Some(l) => body.push_str(l),
                    None => break,
                }
            }
            let body = body.trim_start();
            let end = body.find(|c: char| !is_ident(c)).unwrap_or(body.len());
            let name = &body[..end];
            // Function-like macros are not expanded.
            if name.is_empty() || body[end..].starts_with('(') {
                continue;
            }
            let value = body[end..].trim().to_string();
            // Defined twice with different bodies: `#ifdef SMALL_DATASET #define N 512 #else
            // #define N 4096`, which this reader cannot choose between. Unknown.
            if self.conflicting.contains(name) {
                continue;
            }
            if self.macros.get(name).is_some_and(|v| *v != value) {
                self.macros.remove(name);
                self.conflicting.insert(name.to_string());
                continue;
            }
            self.macros.insert(name.to_string(), value);
        }
    }

    /// The value of `expr` as a `dim3` (an integer is `[v, 1, 1]`).
    fn dim3_at(&self, expr: &str, before: &str, depth: u32) -> Option<[u32; 3]> {
        if depth > MAX_DEPTH {
            return None;
        }
        let e = expr.trim();
        // dim3(a, b, c) or dim3{a, b, c}
        if let Some(rest) = e.strip_prefix("dim3") {
            let rest = rest.trim();
            if let Some(inner) = rest
                .strip_prefix('(')
                .and_then(|r| r.strip_suffix(')'))
                .or_else(|| rest.strip_prefix('{').and_then(|r| r.strip_suffix('}')))
            {
                return self.dims_of(inner, before, depth + 1);
            }
        }
        if let Some(inner) = e.strip_prefix('{').and_then(|r| r.strip_suffix('}')) {
            return self.dims_of(inner, before, depth + 1);
        }
        if e.chars().all(is_ident) && !e.is_empty() && !e.starts_with(|c: char| c.is_ascii_digit())
        {
            if let Some(m) = self.macros.get(e) {
                return self.dim3_at(m, before, depth + 1);
            }
            if let Some(d) = self.dim3_variable(e, before, depth) {
                return Some(d);
            }
        }
        let v = self.int_at(e, before, depth + 1)?;
        Some([u32::try_from(v).ok().filter(|&v| v > 0)?, 1, 1])
    }

    fn dims_of(&self, inner: &str, before: &str, depth: u32) -> Option<[u32; 3]> {
        let parts = split_top(inner);
        if parts.is_empty() || parts.len() > 3 {
            return None;
        }
        let mut d = [1u32; 3];
        for (k, p) in parts.iter().enumerate() {
            let v = self.int_at(p, before, depth)?;
            d[k] = u32::try_from(v).ok().filter(|&v| v > 0)?;
        }
        Some(d)
    }

    /// `dim3 name(...)`, `dim3 name = ...`, `dim3 name{...}` declared in `before` (the last
    /// one; also as a later declarator of a list, `dim3 blocks, threads;`), with later
    /// `name.x = ...` and `name = ...` assignments applied in order.
    fn dim3_variable(&self, name: &str, before: &str, depth: u32) -> Option<[u32; 3]> {
        let mut decl = None;
        for i in word_positions(before, name) {
            let head = before[..i].trim_end();
            if head.ends_with("dim3") || declarator_list_of_dim3(head) {
                decl = Some(i);
            }
        }
        let i = decl?;
        let after = &before[i + name.len()..];
        let rest = after.trim_start();
        let (mut d, consumed) = if rest.starts_with('(') || rest.starts_with('{') {
            let close = matching(rest)?;
            let inner = &rest[1..close];
            let head = &before[..i];
            (self.dims_of(inner, head, depth + 1)?, close)
        } else if let Some(r) = rest.strip_prefix('=') {
            let end = r.find(';')?;
            (self.dim3_at(&r[..end], &before[..i], depth + 1)?, end)
        } else {
            // `dim3 name;` is 1x1x1 until its fields are set.
            ([1, 1, 1], 0)
        };
        // Field assignments after the declaration.
        let tail_start = i + name.len() + (after.len() - rest.len()) + consumed;
        let tail_start = tail_start.min(before.len());
        let tail = &before[tail_start..];
        for j in word_positions(tail, name) {
            // Not a member of something else (`cfg.threads = ...`).
            if tail[..j].trim_end().ends_with(['.', '>']) {
                continue;
            }
            let r = &tail[j + name.len()..];
            // Passed whole to a function (`get_sm_size(out, H, W, block)`, HeCBench's zoom:
            // by reference, the callee sets its fields) or its address taken: what it holds
            // at the launch is not known here.
            if passed_to_a_call(&tail[..j], r) {
                return None;
            }
            // The whole value replaced: `threads = dim3(M2W, M2H);`.
            if let Some(r) = r.trim_start().strip_prefix('=')
                && !r.starts_with('=')
            {
                let end = r.find(';')?;
                d = self.dim3_at(&r[..end], &before[..tail_start + j], depth + 1)?;
                continue;
            }
            let Some(r) = r.strip_prefix('.') else {
                continue;
            };
            let k = match r.chars().next() {
                Some('x') => 0,
                Some('y') => 1,
                Some('z') => 2,
                _ => continue,
            };
            let r = r[1..].trim_start();
            let Some(r) = r.strip_prefix('=').filter(|r| !r.starts_with('=')) else {
                continue;
            };
            let end = r.find(';')?;
            let v = self.int_at(&r[..end], &before[..tail_start + j], depth + 1)?;
            d[k] = u32::try_from(v).ok().filter(|&v| v > 0)?;
        }
        Some(d)
    }

    /// The integer value of `expr`, resolving names in `before`.
    fn int_at(&self, expr: &str, before: &str, depth: u32) -> Option<i64> {
        self.value_at(expr, before, depth, false)
    }

    /// The value of `expr` when it is a compile-time integer constant: names resolve only to
    /// macros, `const`/`constexpr` integers and enumerators (of `before`, else of the included
    /// headers) that no later declaration of the same name shadows.
    fn const_at(&self, expr: &str, before: &str, depth: u32) -> Option<i64> {
        self.value_at(expr, before, depth, true)
    }

    /// `expr` as a whole evaluated to an integer; with `constant`, names resolve only to
    /// compile-time constants ([`Env::const_at`]).
    fn value_at(&self, expr: &str, before: &str, depth: u32, constant: bool) -> Option<i64> {
        if depth > MAX_DEPTH {
            return None;
        }
        let toks = tokens(expr)?;
        let mut p = Parser {
            toks: &toks,
            pos: 0,
            env: self,
            before,
            depth,
            nest: 0,
            constant,
        };
        let v = p.expr()?;
        (p.pos == toks.len()).then_some(v)
    }

    /// The value of constant `name`: a macro, or a `const`/`constexpr` integer or an
    /// enumerator with an initialiser, declared in `before` (the last such declaration) or in
    /// the headers, and not redeclared in `before` after it (a parameter or local of the same
    /// name shadows it).
    fn const_name(&self, name: &str, before: &str, depth: u32) -> Option<i64> {
        if self.conflicting.contains(name) {
            return None;
        }
        if let Some(m) = self.macros.get(name) {
            return self.const_at(m, before, depth + 1);
        }
        // (name's byte, its value's first and past-the-end bytes, the declaration's end).
        let decl = |text: &str| -> Option<(usize, usize, usize, usize)> {
            let mut last = None;
            for i in word_positions(text, name) {
                let r = text[i + name.len()..].trim_start();
                let at = text.len() - r.len();
                if let Some(r) = r.strip_prefix('=').filter(|r| !r.starts_with('=')) {
                    let start = text.len() - r.len();
                    let end = if in_enum(text, i) {
                        r.find([',', '}'])?
                    } else if declared_const(text, i) {
                        r.find(';')?
                    } else {
                        continue;
                    };
                    last = Some((i, start, start + end, start + end));
                } else if (r.starts_with('(') || r.starts_with('{')) && declared_const(text, i) {
                    // Direct or list initialisation: `constexpr unsigned int n(4);`, `{4}`.
                    let close = if r.starts_with('(') { ')' } else { '}' };
                    let Some(end) = r.find(close) else { continue };
                    if !r[end + 1..].trim_start().starts_with([';', ',']) {
                        continue;
                    }
                    last = Some((i, at + 1, at + end, at + end + 1));
                }
            }
            last
        };
        let (value_text, after_decl, scope) = match decl(before) {
            Some((i, s, e, end)) => (&before[s..e], end, &before[..i]),
            None => {
                let (_, s, e, _) = decl(&self.headers)?;
                (&self.headers[s..e], 0, "")
            }
        };
        // A later declaration of the name (`int n`, a parameter) shadows it.
        if word_positions(&before[after_decl..], name).any(|j| {
            let head = before[after_decl..after_decl + j].trim_end();
            let word_start = head.rfind(|c: char| !is_ident(c)).map_or(0, |p| p + 1);
            let word = &head[word_start..];
            !word.is_empty() && !matches!(word, "return" | "case" | "sizeof" | "else" | "do")
        }) {
            return None;
        }
        let scope = if scope.is_empty() { before } else { scope };
        self.const_at(value_text, scope, depth + 1)
    }

    /// The value of integer name `name`: a macro, or the last `name = expr;` before the use.
    fn int_name(&self, name: &str, before: &str, depth: u32) -> Option<i64> {
        if self.conflicting.contains(name) {
            return None;
        }
        if let Some(m) = self.macros.get(name) {
            return self.int_at(m, before, depth + 1);
        }
        let mut last = None;
        for i in word_positions(before, name) {
            let r = before[i + name.len()..].trim_start();
            if let Some(r) = r.strip_prefix('=')
                && !r.starts_with('=')
            {
                last = Some((i, r));
            }
        }
        let Some((i, r)) = last else {
            // Not assigned in the source: a constant of an included header.
            return self.const_name(name, before, depth + 1);
        };
        let end = r.find(';')?;
        self.int_at(&r[..end], &before[..i], depth + 1)
    }
}

/// Whether the declaration naming something at byte `i` of `text` is `const` or
/// `constexpr` (the words of its statement before the name).
fn declared_const(text: &str, i: usize) -> bool {
    let head_start = text[..i].rfind([';', '{', '}', ')']).map_or(0, |p| p + 1);
    // Preprocessor lines end no statement but are none of it.
    let words: Vec<&str> = text[head_start..i]
        .lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .flat_map(|l| l.split(|c: char| !is_ident(c)))
        .filter(|w| !w.is_empty())
        .collect();
    words.iter().any(|w| *w == "const" || *w == "constexpr")
        && words
            .last()
            .is_some_and(|w| INT_TYPES.contains(w) || matches!(*w, "const" | "auto"))
        && words.iter().all(|w| {
            INT_TYPES.contains(w)
                || matches!(*w, "const" | "constexpr" | "static" | "inline" | "auto")
        })
}

/// Whether byte `i` of `text` lies in the braces of an `enum`.
fn in_enum(text: &str, i: usize) -> bool {
    let mut depth = 0i32;
    for (k, c) in text[..i].char_indices().rev() {
        match c {
            '}' => depth += 1,
            '{' if depth == 0 => {
                let head = text[..k].trim_end();
                let head_start = head.rfind([';', '{', '}']).map_or(0, |p| p + 1);
                return head[head_start..]
                    .split(|c: char| !is_ident(c))
                    .any(|w| w == "enum");
            }
            '{' => depth -= 1,
            ';' if depth == 0 => return false,
            _ => {}
        }
    }
    false
}

/// Index of the bracket closing the one `s` starts with.
fn matching(s: &str) -> Option<usize> {
    let mut depth = 0i32;
    for (i, c) in s.char_indices() {
        match c {
            '(' | '{' | '[' => depth += 1,
            ')' | '}' | ']' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Num(i64),
    Name(String),
    Op(&'static str),
}

fn tokens(s: &str) -> Option<Vec<Tok>> {
    const OPS: [&str; 13] = [
        "<<", ">>", "+", "-", "*", "/", "%", "(", ")", "&", "|", "^", "~",
    ];
    let mut out = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i] as char;
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() {
            let start = i;
            while i < b.len() && (b[i] as char).is_ascii_alphanumeric() {
                i += 1;
            }
            let lit = s[start..i].trim_end_matches(['u', 'U', 'l', 'L']);
            let v = if let Some(h) = lit.strip_prefix("0x").or_else(|| lit.strip_prefix("0X")) {
                i64::from_str_radix(h, 16).ok()?
            } else {
                lit.parse().ok()?
            };
            out.push(Tok::Num(v));
        } else if is_ident(c) {
            let start = i;
            while i < b.len() && is_ident(b[i] as char) {
                i += 1;
            }
            out.push(Tok::Name(s[start..i].to_string()));
        } else {
            let op = OPS.iter().find(|o| s[i..].starts_with(**o))?;
            out.push(Tok::Op(op));
            i += op.len();
        }
    }
    Some(out)
}

/// Integer expressions: `| ^ &`, shifts, `+ -`, `* / %`, unary `- ~ +`, parentheses, casts
/// to integer types (dropped), numbers and names.
struct Parser<'a> {
    toks: &'a [Tok],
    pos: usize,
    env: &'a Env,
    before: &'a str,
    depth: u32,
    /// Parentheses and unary operators open now (bounded: the input cannot drive the
    /// recursion deep).
    nest: u32,
    /// Names resolve only to compile-time constants ([`Env::const_name`]).
    constant: bool,
}

/// Most nested parentheses and unary operators in one expression.
const MAX_NEST: u32 = 64;

const LEVELS: [&[&str]; 6] = [
    &["|"],
    &["^"],
    &["&"],
    &["<<", ">>"],
    &["+", "-"],
    &["*", "/", "%"],
];

const INT_TYPES: [&str; 12] = [
    "int", "unsigned", "long", "short", "size_t", "uint", "int32_t", "uint32_t", "int64_t",
    "uint64_t", "signed", "char",
];

impl Parser<'_> {
    fn peek_op(&self) -> Option<&'static str> {
        match self.toks.get(self.pos) {
            Some(Tok::Op(o)) => Some(o),
            _ => None,
        }
    }

    fn expr(&mut self) -> Option<i64> {
        self.level(0)
    }

    fn level(&mut self, l: usize) -> Option<i64> {
        if l == LEVELS.len() {
            return self.unary();
        }
        let mut v = self.level(l + 1)?;
        while let Some(op) = self.peek_op().filter(|o| LEVELS[l].contains(o)) {
            self.pos += 1;
            let r = self.level(l + 1)?;
            v = match op {
                "|" => v | r,
                "^" => v ^ r,
                "&" => v & r,
                "<<" => v.checked_shl(u32::try_from(r).ok()?)?,
                ">>" => v.checked_shr(u32::try_from(r).ok()?)?,
                "+" => v.checked_add(r)?,
                "-" => v.checked_sub(r)?,
                "*" => v.checked_mul(r)?,
                "/" => v.checked_div(r)?,
                _ => v.checked_rem(r)?,
            };
        }
        Some(v)
    }

    fn unary(&mut self) -> Option<i64> {
        self.nest += 1;
        let v = if self.nest > MAX_NEST {
            None
        } else {
            self.unary_inner()
        };
        self.nest -= 1;
        v
    }

    fn unary_inner(&mut self) -> Option<i64> {
        match self.toks.get(self.pos)? {
            Tok::Op("-") => {
                self.pos += 1;
                self.unary()?.checked_neg()
            }
            Tok::Op("+") => {
                self.pos += 1;
                self.unary()
            }
            Tok::Op("~") => {
                self.pos += 1;
                Some(!self.unary()?)
            }
            Tok::Op("(") => {
                // A cast to an integer type, or a parenthesised expression.
                let mut j = self.pos + 1;
                while let Some(Tok::Name(n)) = self.toks.get(j) {
                    if !INT_TYPES.contains(&n.as_str()) {
                        break;
                    }
                    j += 1;
                }
                if j > self.pos + 1 && self.toks.get(j) == Some(&Tok::Op(")")) {
                    self.pos = j + 1;
                    return self.unary();
                }
                self.pos += 1;
                let v = self.expr()?;
                (self.toks.get(self.pos) == Some(&Tok::Op(")"))).then_some(())?;
                self.pos += 1;
                Some(v)
            }
            Tok::Num(v) => {
                self.pos += 1;
                Some(*v)
            }
            Tok::Name(n) if self.constant => {
                self.pos += 1;
                self.env.const_name(n, self.before, self.depth + 1)
            }
            Tok::Name(n) => {
                self.pos += 1;
                self.env.int_name(n, self.before, self.depth + 1)
            }
            Tok::Op(_) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dim3_from_macros_and_constants() {
        let src = r#"
#define BS 16
const int ROWS = 4;
// kernel<<<1, 1>>> in a comment is not a launch
void f(int n) {
    dim3 threads(BS, BS / ROWS);
    dim3 grid((n + BS - 1) / BS, 8);
    k<<<grid, threads>>>(n);
    int t = 2 * 128;
    ns::other<float, 4><<<(n + t - 1) / t, t, 0, stream>>>(n);
    dim3 b;
    b.x = 32; b.y = ROWS * 2;
    third<<<dim3(4, 4), b>>>();
    fourth<<<n, BS * BS>>>();
}
"#;
        let s = launch_sites(src);
        assert_eq!(s.len(), 4, "{s:?}");
        assert_eq!(s[0].kernel, "k");
        assert_eq!(s[0].line, 8);
        assert_eq!(s[0].block, Some([16, 4, 1]));
        assert_eq!(s[0].grid, None, "n is not known");
        assert_eq!(s[1].kernel, "other");
        assert_eq!(s[1].block, Some([256, 1, 1]));
        assert_eq!(s[2].kernel, "third");
        assert_eq!(s[2].grid, Some([4, 4, 1]));
        assert_eq!(s[2].block, Some([32, 8, 1]));
        assert_eq!(s[3].block, Some([256, 1, 1]));
    }

    #[test]
    fn constants_with_direct_and_list_initialisers() {
        // HeCBench's marchingCubes: `constexpr unsigned int voxelXLv2(4);` and a block built
        // from such constants with braces.
        let src = r#"
constexpr unsigned int vx(4);
constexpr unsigned int vy{4};
const int vz (8), unused(3);
constexpr int sq(int a) { return a * a; }
void f(int n) {
    const dim3 block{ vx, vy, vz };
    k<<<n, block>>>(n);
    g<<<n, sq(4)>>>(n);
}
"#;
        let s = launch_sites(src);
        assert_eq!(s.len(), 2, "{s:?}");
        assert_eq!(s[0].block, Some([4, 4, 8]));
        assert_eq!(s[1].block, None, "a function call is no constant");
    }

    #[test]
    fn dim3_set_by_a_function_it_is_passed_to_is_unknown() {
        // HeCBench's zoom: `get_sm_size` sets the block's fields through a reference.
        let src = r#"
int get_sm_size(int *o, int H, int W, dim3 &block);
void f(int *o, int H, int W) {
    dim3 block;
    int smem = get_sm_size(o, H, W, block);
    dim3 grid((W - 1) / block.x + 1, (H - 1) / block.y + 1, 4);
    zoom<<<grid, block, smem>>>(o);
    dim3 b2;
    g(&b2);
    two<<<1, b2>>>(o);
    dim3 b3(64);
    printf("%d", b3.x);
    three<<<f(1, 2), b3>>>(o);
}
"#;
        let s = launch_sites(src);
        assert_eq!(s.len(), 3, "{s:?}");
        assert_eq!(s[0].block, None, "{s:?}");
        assert_eq!(s[1].block, None, "{s:?}");
        // A launch's own arguments and a field read are no call taking the variable.
        assert_eq!(s[2].block, Some([64, 1, 1]), "{s:?}");
        assert!(passed_to_a_call("get(o, ", ")"));
        assert!(!passed_to_a_call("k<<<grid, ", ">>>"));
        assert!(!passed_to_a_call("k<<<f(1, 2), ", ">>>"));
        assert!(!passed_to_a_call("x = dim3(", ")"));
    }

    #[test]
    fn dim3_declared_in_a_list_and_assigned_later() {
        // HeCBench's match: the shapes are assigned after a list declaration, and again
        // before each launch.
        let src = r#"
#define M1W 128
#define M2W 16
#define M2H 16
void f() {
    dim3 blocks, threads;
    blocks = dim3(4096/M1W);
    threads = dim3(M1W);
    one<<<blocks,threads>>>();
    blocks = dim3(4096/M2W);
    threads = dim3(M2W, M2H);
    two<<<blocks,threads>>>();
    if (threads.x == 16) cfg.threads = 3;
    three<<<blocks,threads>>>();
}
"#;
        let s = launch_sites(src);
        assert_eq!(s.len(), 3, "{s:?}");
        assert_eq!(s[0].block, Some([128, 1, 1]));
        assert_eq!(s[0].grid, Some([32, 1, 1]));
        assert_eq!(s[1].block, Some([16, 16, 1]));
        assert_eq!(s[1].grid, Some([256, 1, 1]));
        // A comparison and another object's field are not assignments.
        assert_eq!(s[2].block, Some([16, 16, 1]));
        assert!(!declarator_list_of_dim3("int a, b,"));
        assert!(!declarator_list_of_dim3("f(dim3 a,"));
        assert!(declarator_list_of_dim3(
            "x = 1; dim3 grid(4, 4), block = dim3(8),"
        ));
        assert!(declarator_list_of_dim3("{ dim3 grid{4, 4},"));
    }

    #[test]
    fn compile_time_constant_arguments() {
        let header =
            "#define BINS 64\nstatic const int PARTS = 2 * BINS;\nenum { WIDE = 3, NARROW = 1 };\n";
        let src = r#"
#include "common.h"
static const unsigned int COUNT = 240;
int runtime = 7;
void f(unsigned int bytes, int *d) {
    const unsigned int local = bytes / 4;
    k<<<COUNT, 256>>>(d, COUNT, PARTS + 1, WIDE, runtime, local, 1.5f, (int)sizeof(int), 3u);
    g<<<1, BLOCK>>>();
}
void h(int COUNT) {
    k<<<1, 1>>>(0, COUNT, 0, 0, 0, 0, 0, 0, 0);
}
"#;
        let inc = |name: &str, from: &str| {
            (name == "common.h" && from.is_empty()).then(|| {
                (
                    name.to_string(),
                    format!("{header}#define BLOCK (NARROW * 32)\n"),
                )
            })
        };
        let s = launch_sites_with(src, &inc);
        assert_eq!(s.len(), 3, "{s:?}");
        let v: Vec<Option<i64>> = s[0].args.iter().map(|a| a.value).collect();
        assert_eq!(
            v,
            [
                None,
                Some(240),
                Some(129),
                Some(3),
                None,
                None,
                None,
                None,
                Some(3)
            ],
            "{:?}",
            s[0].args
        );
        assert_eq!(s[0].args[6].text, "1.5f");
        assert_eq!(s[0].grid, Some([240, 1, 1]));
        assert_eq!(
            s[1].block,
            Some([32, 1, 1]),
            "a macro of the included header"
        );
        assert!(s[1].args.is_empty());
        assert_eq!(
            s[2].args[1].value, None,
            "the parameter COUNT shadows the constant"
        );
        // A macro defined differently under conditional compilation is unknown.
        let cond = "#ifdef SMALL\n#define N 512\n#else\n#define N 4096\n#endif\n#define B 32\n#define B 32\nvoid f(float *d) { k<<<N / B, B>>>(d, N, B); }\n";
        let s2 = launch_sites(cond);
        assert_eq!(s2[0].grid, None);
        assert_eq!(
            s2[0].block,
            Some([32, 1, 1]),
            "the same body twice is one macro"
        );
        assert_eq!(s2[0].args[1].value, None);
        assert_eq!(s2[0].args[2].value, Some(32));
        // Without the header, its names are unknown.
        assert_eq!(launch_sites(src)[0].args[2].value, None);
    }

    #[test]
    fn unresolvable_and_malformed_sites_do_not_panic() {
        for src in [
            "k<<<",
            "<<<a,b>>>",
            "k<<<g, blockSize>>>();",
            "#define A A\nk<<<1, A>>>();",
            "k<<<1, (2>>>",
            "dim3 b(1,2; k<<<1, b>>>",
            "k<<<1, 1u << 40>>>",
            "k<<<1, 0x>>>",
            format!("k<<<1, {}1{}>>>", "(".repeat(100_000), ")".repeat(100_000)).as_str(),
            format!("k<<<1, {}1>>>", "-".repeat(100_000)).as_str(),
        ] {
            let s = launch_sites(src);
            assert!(
                s.iter()
                    .all(|x| x.block.is_none() || x.block == Some([1, 1, 1])),
                "{src}: {s:?}"
            );
        }
    }
}
