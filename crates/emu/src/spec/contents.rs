//! Buffer contents: the bytes a buffer spec's `init` describes (constants, ranges, the
//! splitmix64 generator, `.npy` and raw files).

use super::*;

/// splitmix64 of counter `i` under `seed` (the documented generator).
#[inline]
pub fn splitmix(seed: u64, i: u64) -> u64 {
    let mut z = seed.wrapping_add(i.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The initial bytes of a buffer.
pub fn buffer_bytes(b: &BufferSpec) -> Result<Vec<u8>, String> {
    let n = b.len as usize;
    let size = b.ty.size() as usize;
    let total = n.checked_mul(size).ok_or("buffer too large")?;
    let mut out = Vec::new();
    out.try_reserve_exact(total)
        .map_err(|_| format!("cannot allocate {total} bytes"))?;
    let put = |out: &mut Vec<u8>, bits: u64| out.extend_from_slice(&bits.to_le_bytes()[..size]);
    match &b.init {
        Init::Zeros => out.resize(total, 0),
        Init::Iota => {
            for i in 0..n {
                let bits = if b.ty.is_float() {
                    b.ty.float_bits(i as f64)
                } else {
                    i as u64 & mask_bits(size as u32 * 8)
                };
                put(&mut out, bits);
            }
        }
        Init::Constant(s) => {
            let bits = scalar_bits(*s, b.ty)?;
            for _ in 0..n {
                put(&mut out, bits);
            }
        }
        Init::Random { seed, min, max } => {
            if b.ty.is_float() {
                let (lo, hi) = (min.as_f64(), max.as_f64());
                let d = hi - lo;
                for i in 0..n {
                    let z = splitmix(*seed, i as u64);
                    let u = (z >> 11) as f64 * (1.0 / (1u64 << 53) as f64);
                    let x = lo + d * u;
                    put(&mut out, b.ty.float_bits(x));
                }
            } else {
                let (Scalar::Int(lo), Scalar::Int(hi)) = (*min, *max) else {
                    return Err("integer random bounds must be integers".into());
                };
                let range = (hi - lo + 1) as u128;
                for i in 0..n {
                    let z = splitmix(*seed, i as u64);
                    let v = if range >= 1u128 << 64 {
                        z
                    } else {
                        (lo as u64).wrapping_add(z % range as u64)
                    };
                    put(&mut out, v & mask_bits(size as u32 * 8));
                }
            }
        }
        Init::File(p) => {
            let data = std::fs::read(p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
            let body = if p.extension().is_some_and(|e| e == "npy") {
                npy_body(&data, b.ty, b.len).map_err(|m| format!("{}: {m}", p.display()))?
            } else {
                &data[..]
            };
            if body.len() != total {
                return Err(format!(
                    "{} holds {} bytes; buffer `{}` needs {total} ({} × {})",
                    p.display(),
                    body.len(),
                    b.name,
                    b.len,
                    b.ty.name()
                ));
            }
            out.extend_from_slice(body);
        }
    }
    Ok(out)
}

/// The data of a `.npy` file, checked against the buffer's type and length.
fn npy_body(data: &[u8], ty: ElemType, len: u64) -> Result<&[u8], String> {
    if data.len() < 10 || &data[..6] != b"\x93NUMPY" {
        return Err("not a .npy file".into());
    }
    let (hlen, start) = match data[6] {
        1 => (u16::from_le_bytes([data[8], data[9]]) as usize, 10),
        2 | 3 => {
            if data.len() < 12 {
                return Err("truncated .npy header".into());
            }
            (
                u32::from_le_bytes([data[8], data[9], data[10], data[11]]) as usize,
                12,
            )
        }
        v => return Err(format!(".npy version {v} is not supported")),
    };
    let header = data
        .get(start..start + hlen)
        .ok_or("truncated .npy header")?;
    let header = String::from_utf8_lossy(header);
    let field = |name: &str| -> Option<String> {
        let k = format!("'{name}':");
        let i = header.find(&k)? + k.len();
        Some(header[i..].trim_start().to_string())
    };
    let descr = field("descr").ok_or("no descr in .npy header")?;
    let descr = descr.trim_start_matches('\'');
    let descr = &descr[..descr.find('\'').unwrap_or(descr.len())];
    let want = ty.npy_descr();
    let alt = want.replace('<', "|");
    let ok = descr == want
        || descr == alt
        || (ty == ElemType::Bf16 && (descr == "<u2" || descr == "<V2" || descr == "|V2"));
    if !ok {
        return Err(format!(
            "dtype `{descr}` does not match the buffer type {} (`{want}`)",
            ty.name()
        ));
    }
    if field("fortran_order").is_some_and(|f| f.starts_with("True")) {
        return Err("Fortran-ordered arrays are not supported".into());
    }
    let shape = field("shape").ok_or("no shape in .npy header")?;
    let shape = &shape[1..shape.find(')').unwrap_or(1).max(1)];
    let count: u64 = shape
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.parse::<u64>().unwrap_or(0))
        .product();
    if count != len {
        return Err(format!("holds {count} elements; the buffer has {len}"));
    }
    Ok(&data[start + hlen..])
}
