//! Function names as people write them: just enough Itanium C++ demangling to show a kernel
//! as `ns::kernel`, to give its base name (`stride2_load` for `_Z12stride2_loadPKfPf`), and
//! to match a kernel named in a launch spec or on the command line (`stride3`, `ns::kernel`)
//! against its mangled PTX symbol (`_Z7stride3Pfi`, `_ZN2ns6kernelEPf`). Template arguments
//! and parameter types are skipped, not decoded. Every crate that names functions uses this
//! one module.

/// The qualified function name of a mangled symbol (`ns::kernel`), or `None` if `sym` is not
/// an Itanium-mangled function name this demangler understands.
pub fn qualified_name(sym: &str) -> Option<String> {
    let s = sym.strip_prefix("_Z")?.as_bytes();
    let mut i = 0usize;
    let mut parts: Vec<String> = Vec::new();
    if s.first() == Some(&b'N') {
        i += 1;
        while matches!(s.get(i), Some(b'r' | b'V' | b'K' | b'R' | b'O')) {
            i += 1;
        }
        loop {
            match s.get(i)? {
                b'E' => break,
                b'S' if s.get(i + 1) == Some(&b't') => {
                    parts.push("std".into());
                    i += 2;
                }
                b'I' => {
                    i = skip_balanced(s, i)?;
                }
                b'0'..=b'9' => {
                    let (name, next) = source_name(s, i)?;
                    parts.push(name);
                    i = next;
                }
                b'C' | b'D' => {
                    // Constructors/destructors are never kernels.
                    return None;
                }
                _ => return None,
            }
        }
    } else if s.starts_with(b"St") {
        parts.push("std".into());
        let (name, _) = source_name(s, 2)?;
        parts.push(name);
    } else {
        let (name, _) = source_name(s, 0)?;
        parts.push(name);
    }
    if parts.is_empty() {
        return None;
    }
    Some(parts.join("::"))
}

fn source_name(s: &[u8], mut i: usize) -> Option<(String, usize)> {
    let start = i;
    while s.get(i).is_some_and(u8::is_ascii_digit) {
        i += 1;
    }
    if i == start {
        return None;
    }
    let len: usize = std::str::from_utf8(&s[start..i]).ok()?.parse().ok()?;
    let end = i.checked_add(len)?;
    let name = std::str::from_utf8(s.get(i..end)?).ok()?.to_string();
    Some((name, end))
}

/// Skips a template argument list starting at `s[i] == b'I'`; returns the index after its
/// closing `E`.
fn skip_balanced(s: &[u8], mut i: usize) -> Option<usize> {
    let mut depth = 0i32;
    while let Some(&c) = s.get(i) {
        match c {
            b'I' | b'N' | b'X' | b'L' => depth += 1,
            b'E' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            b'0'..=b'9' => {
                // A source name may contain any letters: skip it whole.
                let (_, next) = source_name(s, i)?;
                i = next;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    None
}

/// The unqualified name of a function symbol (the last component of its qualified name:
/// `_ZN2ns6kernelEPf` → `kernel`); a name this demangler does not understand is returned
/// unchanged.
pub fn base_name(sym: &str) -> String {
    match qualified_name(sym) {
        Some(q) => match q.rsplit_once("::") {
            Some((_, last)) => last.to_string(),
            None => q,
        },
        None => sym.to_string(),
    }
}

/// Whether `wanted` (as written in a spec) names the function `sym`: the mangled name itself,
/// its qualified name, or the last component of it.
pub fn matches(wanted: &str, sym: &str) -> bool {
    if wanted == sym {
        return true;
    }
    match qualified_name(sym) {
        Some(q) => q == wanted || q.rsplit("::").next() == Some(wanted),
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn demangles_names() {
        assert_eq!(qualified_name("_Z7stride3Pfi").as_deref(), Some("stride3"));
        assert_eq!(
            qualified_name("_ZN2ns6kernelEPf").as_deref(),
            Some("ns::kernel")
        );
        assert_eq!(
            qualified_name("_Z6reduceILi256EEvPKfPfi").as_deref(),
            Some("reduce")
        );
        assert_eq!(
            qualified_name("_ZN5outer5innerIfEEvPT_").as_deref(),
            Some("outer::inner")
        );
        assert_eq!(
            qualified_name("_ZSt4swapIiEvRT_S1_").as_deref(),
            Some("std::swap")
        );
        assert_eq!(qualified_name("plain_c_kernel"), None);
        assert_eq!(qualified_name("_Z"), None);
        assert_eq!(qualified_name("_Z99x"), None);
    }

    #[test]
    fn base_names() {
        assert_eq!(base_name("_Z12stride2_loadPKfPf"), "stride2_load");
        assert_eq!(base_name("_ZN2ns6kernelEPf"), "kernel");
        assert_eq!(base_name("_ZN5outer5innerIfEEvPT_"), "inner");
        assert_eq!(base_name("_Z6reduceILi256EEvPKfPfi"), "reduce");
        assert_eq!(base_name("plain_c_kernel"), "plain_c_kernel");
    }

    #[test]
    fn matching() {
        assert!(matches("stride3", "_Z7stride3Pfi"));
        assert!(matches("_Z7stride3Pfi", "_Z7stride3Pfi"));
        assert!(matches("kernel", "_ZN2ns6kernelEPf"));
        assert!(matches("ns::kernel", "_ZN2ns6kernelEPf"));
        assert!(!matches("stride", "_Z7stride3Pfi"));
        assert!(matches("plain", "plain"));
    }
}
