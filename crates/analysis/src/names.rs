//! Names: the CUDA names of a kernel's parameters, read from the kernel's signature in the
//! source so `--assume n=1000` can name parameters as the programmer wrote them. (Demangling
//! is `warpscope_ir::names`, re-exported here as `base_name`.)

pub use warpscope_ir::names::base_name;

/// The parameter names of function `name` as declared in `source`, searching the lines up to
/// and including `near_line` (1-based; the kernel's first `.loc` line) from the bottom up.
/// Returns `None` when no signature is found.
pub fn cuda_param_names(source: &str, name: &str, near_line: u32) -> Option<Vec<String>> {
    Some(
        cuda_param_decls(source, name, near_line)?
            .iter()
            .map(|d| decl_name(d))
            .collect(),
    )
}

/// The name a parameter declaration declares (`const float *__restrict__ in` -> `in`).
pub fn decl_name(decl: &str) -> String {
    let s = decl.split('=').next().unwrap_or("");
    let s = match s.find('[') {
        Some(p) => &s[..p],
        None => s,
    }
    .trim();
    s.chars()
        .rev()
        .skip_while(|c| !(c.is_alphanumeric() || *c == '_'))
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect()
}

/// Integer types a parameter declaration may be written with (typedefs real code uses
/// included); anything else (a pointer, a float, a structure, a template parameter) is not
/// an integer parameter.
const INT_WORDS: [&str; 19] = [
    "int",
    "unsigned",
    "signed",
    "long",
    "short",
    "char",
    "size_t",
    "uint",
    "uint8_t",
    "uint16_t",
    "uint32_t",
    "uint64_t",
    "int8_t",
    "int16_t",
    "int32_t",
    "int64_t",
    "const",
    "volatile",
    "__restrict__",
];

/// Whether a kernel parameter of PTX type `ty`, declared as `decl` in the source (when
/// found), holds an integer: 64-bit parameters only with an integer declaration (a pointer
/// is one too).
pub fn integer_param(ty: warpscope_ptx::Type, decl: Option<&str>) -> bool {
    use warpscope_ptx::Type;
    let int_decl = decl.map(|d| {
        let d = d.split('=').next().unwrap_or("");
        let name = decl_name(d);
        !d.contains(['*', '&', '[', '<'])
            && d.split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .filter(|w| !w.is_empty() && *w != name)
                .all(|w| INT_WORDS.contains(&w))
    });
    match ty {
        Type::U8 | Type::S8 | Type::U16 | Type::S16 | Type::U32 | Type::S32 | Type::B32 => {
            int_decl != Some(false)
        }
        Type::U64 | Type::S64 | Type::B64 => int_decl == Some(true),
        _ => false,
    }
}

/// Whether `v` is a value of PTX integer type `ty`.
pub fn fits(ty: warpscope_ptx::Type, v: i64) -> bool {
    use warpscope_ptx::Type;
    match ty {
        Type::U8 => (0..=0xff).contains(&v),
        Type::S8 => (-128..=127).contains(&v),
        Type::U16 => (0..=0xffff).contains(&v),
        Type::S16 => (-32768..=32767).contains(&v),
        Type::U32 | Type::B32 => (0..=i64::from(u32::MAX)).contains(&v),
        Type::S32 => (i64::from(i32::MIN)..=i64::from(i32::MAX)).contains(&v),
        _ => v >= 0 || matches!(ty, Type::S64),
    }
}

/// The parameter declarations of function `name` in `source` (as [`cuda_param_names`] finds
/// its signature), each trimmed, `void` and empty lists dropped.
pub fn cuda_param_decls(source: &str, name: &str, near_line: u32) -> Option<Vec<String>> {
    let lines: Vec<&str> = source.lines().collect();
    let end = (near_line as usize).min(lines.len());
    let start = end.saturating_sub(40);
    let window = lines[start..end].join("\n");
    // The last occurrence of `name(` that is a whole identifier.
    let mut found = None;
    let mut from = 0;
    while let Some(p) = window[from..].find(name) {
        let at = from + p;
        let before_ok = at == 0
            || !window[..at]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_alphanumeric() || c == '_');
        let after = window[at + name.len()..].trim_start();
        if before_ok && after.starts_with('(') {
            found = Some(at + name.len() + (window[at + name.len()..].len() - after.len()));
        }
        from = at + name.len();
    }
    let open = found?;
    let mut depth = 0i32;
    let mut close = None;
    for (i, c) in window[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    close = Some(open + i);
                    break;
                }
            }
            _ => {}
        }
    }
    let inner = &window[open + 1..close?];
    let mut names = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    let push = |s: &str, names: &mut Vec<String>| {
        let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
        if s.is_empty() || s == "void" {
            return;
        }
        names.push(s);
    };
    for c in inner.chars() {
        match c {
            '<' | '(' | '[' => {
                depth += 1;
                cur.push(c);
            }
            '>' | ')' | ']' => {
                depth -= 1;
                cur.push(c);
            }
            ',' if depth == 0 => {
                push(&cur, &mut names);
                cur.clear();
            }
            _ => cur.push(c),
        }
    }
    push(&cur, &mut names);
    Some(names)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn demangles_base_names() {
        assert_eq!(base_name("_Z12stride2_loadPKfPf"), "stride2_load");
        assert_eq!(base_name("_ZN2ns6kernelEPf"), "kernel");
        assert_eq!(base_name("plain"), "plain");
        assert_eq!(base_name("_Z3fooi"), "foo");
    }

    #[test]
    fn reads_parameter_names() {
        let src =
            "// x\n__global__ void k(const float* __restrict__ in, float *out,\n    int n)\n{\n";
        assert_eq!(
            cuda_param_names(src, "k", 4).unwrap(),
            vec!["in", "out", "n"]
        );
        let src = "template <int N> __global__ void g(float a[16], int s = 3) {";
        assert_eq!(cuda_param_names(src, "g", 1).unwrap(), vec!["a", "s"]);
        assert!(cuda_param_names("void h();", "k", 1).is_none());
    }
}
