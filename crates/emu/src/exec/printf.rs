//! The CUDA runtime built-ins the emulator implements: `vprintf` (printf formatting of
//! CUDA-packed arguments) and `__assertfail` (translated as calls by `translate::control`).

#![allow(clippy::needless_range_loop)]

use super::*;

pub(super) fn parse_spec(spec: &str) -> (usize, Option<usize>, bool, bool, bool) {
    let s = &spec[1..];
    let left = s.contains('-');
    let plus = s.contains('+');
    let flags_end = s
        .find(|c: char| c.is_ascii_digit() && c != '0' || c == '.')
        .unwrap_or(s.len());
    let zero = s[..flags_end].contains('0');
    let rest = &s[flags_end..];
    let (w, p) = match rest.split_once('.') {
        Some((w, p)) => (w, Some(p.parse().unwrap_or(0))),
        None => (rest, None),
    };
    (w.parse().unwrap_or(0), p, left, zero, plus)
}

pub(super) fn fmt_exp(v: f64, p: usize, upper: bool) -> String {
    let s = format!("{v:.p$e}");
    // Rust writes 1.5e2; C writes 1.5e+02.
    let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
    let ev: i32 = e.parse().unwrap_or(0);
    let r = format!("{m}e{}{:02}", if ev < 0 { '-' } else { '+' }, ev.abs());
    if upper { r.to_uppercase() } else { r }
}

pub(super) fn fmt_general(v: f64, p: usize) -> String {
    if v == 0.0 || !v.is_finite() {
        return format!("{v}");
    }
    let p = p.max(1);
    let exp = v.abs().log10().floor() as i32;
    if exp < -4 || exp >= p as i32 {
        let s = fmt_exp(v, p - 1, false);
        let (m, e) = s.split_once('e').unwrap_or((&s, ""));
        let m = if m.contains('.') {
            m.trim_end_matches('0').trim_end_matches('.')
        } else {
            m
        };
        format!("{m}e{e}")
    } else {
        let decimals = (p as i32 - 1 - exp).max(0) as usize;
        let s = format!("{v:.decimals$}");
        if s.contains('.') {
            s.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            s
        }
    }
}

impl<'a, O: Observer> Env<'a, O> {
    /// Reads a NUL-terminated string at a generic address (for printf/assert).
    pub(super) fn read_cstr(&mut self, w: &Warp, shared: &[u8], l: usize, addr: u64) -> String {
        let mut out = Vec::new();
        for i in 0..4096u64 {
            let Ok((st, a)) = self.resolve(Space::Generic, false, addr.wrapping_add(i)) else {
                break;
            };
            match self.load(w, shared, l, st, a, 1) {
                Ok(0) | Err(_) => break,
                Ok(b) => out.push(b as u8),
            }
        }
        String::from_utf8_lossy(&out).into_owned()
    }

    /// vprintf and __assertfail.
    pub(super) fn builtin(
        &mut self,
        w: &mut Warp,
        shared: &mut [u8],
        pc: u32,
        exec: u32,
        b: Builtin,
        info: &CallInfo,
    ) -> Result<(), Fault> {
        let lb = w.local_base as usize;
        let arg = |w: &Warp, l: usize, i: usize| -> u64 {
            info.arg_offsets
                .get(i)
                .and_then(|&o| {
                    if o == u32::MAX {
                        None
                    } else {
                        read_plain(&w.local[l], lb + o as usize, 8)
                    }
                })
                .unwrap_or(0)
        };
        match b {
            Builtin::AssertFail => {
                let l = exec.trailing_zeros() as usize;
                let msg = self.read_cstr(w, shared, l, arg(w, l, 0));
                let file = self.read_cstr(w, shared, l, arg(w, l, 1));
                let line = arg(w, l, 2) as u32;
                Err(self.fault(
                    w,
                    pc,
                    l as u32,
                    FaultKind::AssertFailed {
                        message: msg,
                        file,
                        line,
                    },
                ))
            }
            Builtin::Vprintf => {
                for l in lanes(exec) {
                    let fmt = self.read_cstr(w, shared, l, arg(w, l, 0));
                    let args = arg(w, l, 1);
                    let text = self.format(w, shared, l, &fmt, args);
                    let n = text.len();
                    if let Ok(mut o) = self.out.lock() {
                        o.extend_from_slice(text.as_bytes());
                    }
                    if let Some(ro) = info.ret_offset
                        && let Some(m) = w.local.get_mut(l)
                    {
                        let _ = write_plain(m, lb + ro as usize, 4, n as u64);
                    }
                }
                Ok(())
            }
        }
    }

    /// Formats a printf string with arguments packed CUDA-style at generic address `args`.
    pub(super) fn format(
        &mut self,
        w: &Warp,
        shared: &[u8],
        l: usize,
        fmt: &str,
        args: u64,
    ) -> String {
        let mut out = String::new();
        let mut off = 0u64;
        let mut read = |env: &mut Self, size: u64| -> u64 {
            off = off.div_ceil(size) * size;
            let a = args.wrapping_add(off);
            off += size;
            match env.resolve(Space::Generic, false, a) {
                Ok((st, sa)) => env.load(w, shared, l, st, sa, size as u32).unwrap_or(0),
                Err(_) => 0,
            }
        };
        let mut chars = fmt.chars().peekable();
        while let Some(ch) = chars.next() {
            if ch != '%' {
                out.push(ch);
                continue;
            }
            let mut spec = String::from("%");
            let mut long = 0;
            let conv = loop {
                match chars.next() {
                    None => break None,
                    Some(c @ ('-' | '+' | ' ' | '#' | '0'..='9' | '.')) => spec.push(c),
                    Some('l') => long += 1,
                    Some('h' | 'z' | 'j' | 't' | 'L') => {}
                    Some(c) => break Some(c),
                }
            };
            let Some(conv) = conv else {
                out.push_str(&spec);
                break;
            };
            let (width, prec, left, zero, plus) = parse_spec(&spec);
            let body = match conv {
                '%' => {
                    out.push('%');
                    continue;
                }
                'd' | 'i' => {
                    let v = if long > 0 {
                        read(self, 8) as i64
                    } else {
                        i64::from(read(self, 4) as i32)
                    };
                    if plus && v >= 0 {
                        format!("+{v}")
                    } else {
                        v.to_string()
                    }
                }
                'u' | 'x' | 'X' | 'o' => {
                    let v = if long > 0 {
                        read(self, 8)
                    } else {
                        read(self, 4) & 0xffff_ffff
                    };
                    match conv {
                        'u' => v.to_string(),
                        'x' => format!("{v:x}"),
                        'X' => format!("{v:X}"),
                        _ => format!("{v:o}"),
                    }
                }
                'c' => char::from_u32(read(self, 4) as u32 & 0xff)
                    .unwrap_or('?')
                    .to_string(),
                'p' => format!("0x{:x}", read(self, 8)),
                's' => {
                    let p = read(self, 8);
                    self.read_cstr(w, shared, l, p)
                }
                'f' | 'F' | 'e' | 'E' | 'g' | 'G' | 'a' | 'A' => {
                    let v = f64::from_bits(read(self, 8));
                    let p = prec.unwrap_or(6);
                    let s = match conv {
                        'f' | 'F' => format!("{v:.p$}"),
                        'e' | 'E' => fmt_exp(v, p, conv == 'E'),
                        _ => fmt_general(v, p),
                    };
                    if plus && v >= 0.0 { format!("+{s}") } else { s }
                }
                other => format!("%{other}"),
            };
            let body = match (prec, conv) {
                (Some(p), 'd' | 'i' | 'u' | 'x' | 'X' | 'o') if body.len() < p => {
                    format!("{}{}", "0".repeat(p - body.len()), body)
                }
                (Some(p), 's') => body.chars().take(p).collect(),
                _ => body,
            };
            if body.len() < width {
                let pad = width - body.len();
                if left {
                    out.push_str(&body);
                    out.push_str(&" ".repeat(pad));
                } else if zero && conv != 's' {
                    let (sign, digits) = match body.strip_prefix('-') {
                        Some(rest) => ("-", rest.to_string()),
                        None => ("", body.clone()),
                    };
                    out.push_str(sign);
                    out.push_str(&"0".repeat(pad));
                    out.push_str(&digits);
                } else {
                    out.push_str(&" ".repeat(pad));
                    out.push_str(&body);
                }
            } else {
                out.push_str(&body);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printf_formatting_helpers() {
        assert_eq!(fmt_exp(150.0, 2, false), "1.50e+02");
        assert_eq!(fmt_general(0.0001, 6), "0.0001");
        assert_eq!(fmt_general(1234567.0, 6), "1.23457e+06");
        assert_eq!(fmt_general(3.5, 6), "3.5");
        assert_eq!(parse_spec("%08.3"), (8, Some(3), false, true, false));
    }
}
