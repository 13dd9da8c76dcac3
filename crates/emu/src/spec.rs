//! Launch specs: the TOML files that say which module to load, which device buffers to
//! create and how to fill them, which kernels to launch with which arguments, and which
//! buffers to save. The format is documented in `docs/launch-spec.md`; every mistake is
//! reported with the file, the line and the key. What the buffers hold at start is
//! computed in `contents`.

use serde::Deserialize;
use std::collections::{BTreeMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};
use toml::Spanned;

mod contents;
pub use contents::{buffer_bytes, splitmix};

/// Element type of a buffer or scalar argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ElemType {
    I8,
    I16,
    I32,
    I64,
    U8,
    U16,
    U32,
    U64,
    F16,
    Bf16,
    F32,
    F64,
}

impl ElemType {
    pub const ALL: [ElemType; 12] = [
        ElemType::I8,
        ElemType::I16,
        ElemType::I32,
        ElemType::I64,
        ElemType::U8,
        ElemType::U16,
        ElemType::U32,
        ElemType::U64,
        ElemType::F16,
        ElemType::Bf16,
        ElemType::F32,
        ElemType::F64,
    ];

    pub fn parse(s: &str) -> Option<ElemType> {
        Some(match s {
            "i8" | "s8" => ElemType::I8,
            "i16" | "s16" => ElemType::I16,
            "i32" | "s32" => ElemType::I32,
            "i64" | "s64" => ElemType::I64,
            "u8" => ElemType::U8,
            "u16" => ElemType::U16,
            "u32" => ElemType::U32,
            "u64" => ElemType::U64,
            "f16" => ElemType::F16,
            "bf16" => ElemType::Bf16,
            "f32" => ElemType::F32,
            "f64" => ElemType::F64,
            _ => return None,
        })
    }

    pub fn name(self) -> &'static str {
        match self {
            ElemType::I8 => "i8",
            ElemType::I16 => "i16",
            ElemType::I32 => "i32",
            ElemType::I64 => "i64",
            ElemType::U8 => "u8",
            ElemType::U16 => "u16",
            ElemType::U32 => "u32",
            ElemType::U64 => "u64",
            ElemType::F16 => "f16",
            ElemType::Bf16 => "bf16",
            ElemType::F32 => "f32",
            ElemType::F64 => "f64",
        }
    }

    pub fn size(self) -> u32 {
        match self {
            ElemType::I8 | ElemType::U8 => 1,
            ElemType::I16 | ElemType::U16 | ElemType::F16 | ElemType::Bf16 => 2,
            ElemType::I32 | ElemType::U32 | ElemType::F32 => 4,
            ElemType::I64 | ElemType::U64 | ElemType::F64 => 8,
        }
    }

    pub fn is_float(self) -> bool {
        matches!(
            self,
            ElemType::F16 | ElemType::Bf16 | ElemType::F32 | ElemType::F64
        )
    }

    pub fn is_signed(self) -> bool {
        matches!(
            self,
            ElemType::I8 | ElemType::I16 | ElemType::I32 | ElemType::I64
        )
    }

    /// numpy dtype string (`<f4`, `|u1`, ...); bf16 has none (`<V2` is accepted).
    pub fn npy_descr(self) -> &'static str {
        match self {
            ElemType::I8 => "|i1",
            ElemType::I16 => "<i2",
            ElemType::I32 => "<i4",
            ElemType::I64 => "<i8",
            ElemType::U8 => "|u1",
            ElemType::U16 => "<u2",
            ElemType::U32 => "<u4",
            ElemType::U64 => "<u8",
            ElemType::F16 => "<f2",
            ElemType::Bf16 => "<V2",
            ElemType::F32 => "<f4",
            ElemType::F64 => "<f8",
        }
    }

    /// Integer range as i128.
    pub fn int_range(self) -> (i128, i128) {
        let bits = self.size() * 8;
        if self.is_signed() {
            (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
        } else {
            (0, (1i128 << bits) - 1)
        }
    }

    /// Bits of a float value in this (float) type, rounded to nearest even.
    pub fn float_bits(self, x: f64) -> u64 {
        use crate::float::{self, Rnd};
        match self {
            ElemType::F64 => x.to_bits(),
            ElemType::F32 => u64::from((x as f32).to_bits()),
            ElemType::F16 => float::round_to(float::F16, f64::from(x as f32), 0, Rnd::Rn),
            ElemType::Bf16 => float::round_to(float::BF16, f64::from(x as f32), 0, Rnd::Rn),
            _ => x as i64 as u64,
        }
    }
}

/// How a buffer is initialised.
#[derive(Clone, Debug, PartialEq)]
pub enum Init {
    Zeros,
    /// Element i holds i (wrapped for integers, rounded for floats).
    Iota,
    /// Every element holds this value.
    Constant(Scalar),
    /// The documented splitmix64 generator.
    Random {
        seed: u64,
        min: Scalar,
        max: Scalar,
    },
    /// Raw little-endian bytes, or a `.npy` file.
    File(PathBuf),
}

/// A number as written.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scalar {
    Int(i128),
    Float(f64),
}

impl Scalar {
    pub fn as_f64(self) -> f64 {
        match self {
            Scalar::Int(i) => i as f64,
            Scalar::Float(f) => f,
        }
    }
}

/// A device buffer.
#[derive(Clone, Debug, PartialEq)]
pub struct BufferSpec {
    pub name: String,
    pub ty: ElemType,
    pub len: u64,
    pub init: Init,
    /// Where to write the buffer after all launches (relative to the spec's directory, or to
    /// `--save-dir`).
    pub save: Option<PathBuf>,
    pub line: u32,
}

impl BufferSpec {
    pub fn bytes(&self) -> u64 {
        self.len * u64::from(self.ty.size())
    }
}

/// One kernel argument.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    /// The device address of a buffer plus a byte offset.
    Buffer { name: String, offset: u64 },
    /// A scalar of a type.
    Scalar { ty: ElemType, bits: u64 },
    /// The repeat variable (its width follows the kernel parameter).
    Var { name: String },
}

/// `repeat = { var = "t", from = 0, to = 255 }`: `to` is inclusive.
#[derive(Clone, Debug, PartialEq)]
pub struct Repeat {
    pub var: String,
    pub from: i64,
    pub to: i64,
    pub step: i64,
}

/// One `[[launch]]`.
#[derive(Clone, Debug, PartialEq)]
pub struct LaunchEntry {
    pub kernel: String,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub shared_bytes: u32,
    pub args: Vec<Arg>,
    pub repeat: Option<Repeat>,
    pub line: u32,
    /// Line of each argument (for errors found once the kernel is known).
    pub arg_lines: Vec<u32>,
}

/// A parsed launch spec.
#[derive(Clone, Debug, PartialEq)]
pub struct LaunchSpec {
    /// The spec file.
    pub path: PathBuf,
    /// The module, resolved against the spec's directory.
    pub module: PathBuf,
    pub module_line: u32,
    /// Buffers in the order they appear in the file.
    pub buffers: Vec<BufferSpec>,
    pub launches: Vec<LaunchEntry>,
    /// The `[cache]` table, key by key, unvalidated: it configures `warpscope cache`, which
    /// checks the keys and values itself (see `docs/cache.md`).
    pub cache: Vec<SpecSetting>,
}

/// One `key = value` of a free-form spec table (`[cache]`), with its line for errors.
#[derive(Clone, Debug, PartialEq)]
pub struct SpecSetting {
    pub key: String,
    pub value: toml::Value,
    pub line: u32,
}

/// A mistake in a spec.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError {
    pub file: PathBuf,
    /// 1-based line, when known.
    pub line: Option<u32>,
    /// The key at fault (dotted, e.g. `buffer.a.init` or `launch[2].args[1]`).
    pub key: String,
    pub message: String,
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(l) => write!(f, "{}:{l}: ", self.file.display())?,
            None => write!(f, "{}: ", self.file.display())?,
        }
        if self.key.is_empty() {
            write!(f, "{}", self.message)
        } else {
            write!(f, "`{}`: {}", self.key, self.message)
        }
    }
}

impl std::error::Error for SpecError {}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSpec {
    module: Spanned<String>,
    #[serde(default)]
    buffer: BTreeMap<String, Spanned<RawBuffer>>,
    #[serde(default)]
    launch: Vec<Spanned<RawLaunch>>,
    #[serde(default)]
    cache: BTreeMap<String, Spanned<toml::Value>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawBuffer {
    #[serde(rename = "type")]
    ty: Spanned<String>,
    len: Spanned<toml::Value>,
    #[serde(default)]
    init: Option<Spanned<toml::Value>>,
    #[serde(default)]
    save: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLaunch {
    kernel: Spanned<String>,
    grid: Spanned<toml::Value>,
    block: Spanned<toml::Value>,
    #[serde(default)]
    shared_bytes: Option<Spanned<toml::Value>>,
    #[serde(default)]
    args: Vec<Spanned<toml::Value>>,
    #[serde(default)]
    repeat: Option<Spanned<toml::Value>>,
}

struct Ctx<'a> {
    file: &'a Path,
    text: &'a str,
}

impl Ctx<'_> {
    fn line(&self, off: usize) -> u32 {
        let off = off.min(self.text.len());
        self.text.as_bytes()[..off]
            .iter()
            .filter(|&&b| b == b'\n')
            .count() as u32
            + 1
    }
    fn err<T>(
        &self,
        span: std::ops::Range<usize>,
        key: &str,
        msg: impl Into<String>,
    ) -> Result<T, SpecError> {
        Err(SpecError {
            file: self.file.to_path_buf(),
            line: Some(self.line(span.start)),
            key: key.to_string(),
            message: msg.into(),
        })
    }
}

impl LaunchSpec {
    /// Reads and parses a spec file.
    pub fn load(path: &Path) -> Result<LaunchSpec, SpecError> {
        let text = std::fs::read_to_string(path).map_err(|e| SpecError {
            file: path.to_path_buf(),
            line: None,
            key: String::new(),
            message: format!("cannot read the launch spec: {e}"),
        })?;
        LaunchSpec::parse(&text, path)
    }

    /// Parses spec text; `path` names it in errors and anchors relative paths.
    pub fn parse(text: &str, path: &Path) -> Result<LaunchSpec, SpecError> {
        let cx = Ctx { file: path, text };
        let raw: RawSpec = toml::from_str(text).map_err(|e| {
            let line = e.span().map(|s| cx.line(s.start));
            SpecError {
                file: path.to_path_buf(),
                line,
                key: String::new(),
                message: e.message().trim().to_string(),
            }
        })?;
        let dir = path.parent().unwrap_or(Path::new(".")).to_path_buf();
        let module = dir.join(raw.module.get_ref());
        if raw.module.get_ref().is_empty() {
            return cx.err(raw.module.span(), "module", "is empty");
        }
        let module_line = cx.line(raw.module.span().start);

        let mut buffers = Vec::new();
        let mut saves: HashSet<PathBuf> = HashSet::new();
        for (name, b) in &raw.buffer {
            let span = b.span();
            let b = b.get_ref();
            let key = format!("buffer.{name}");
            let ty = match ElemType::parse(b.ty.get_ref()) {
                Some(t) => t,
                None => {
                    return cx.err(
                        b.ty.span(),
                        &format!("{key}.type"),
                        format!(
                            "unknown type `{}`; expected one of i8, i16, i32, i64, u8, u16, u32, \
                             u64, f16, bf16, f32, f64",
                            b.ty.get_ref()
                        ),
                    );
                }
            };
            let len = match b.len.get_ref() {
                toml::Value::Integer(n) if *n > 0 => *n as u64,
                toml::Value::Integer(_) => {
                    return cx.err(b.len.span(), &format!("{key}.len"), "must be at least 1");
                }
                _ => {
                    return cx.err(
                        b.len.span(),
                        &format!("{key}.len"),
                        "must be an integer number of elements",
                    );
                }
            };
            if len
                .checked_mul(u64::from(ty.size()))
                .is_none_or(|n| n > 1 << 40)
            {
                return cx.err(
                    b.len.span(),
                    &format!("{key}.len"),
                    "buffer larger than 1 TiB",
                );
            }
            let init = match &b.init {
                None => Init::Zeros,
                Some(v) => parse_init(&cx, v, &format!("{key}.init"), ty, &dir)?,
            };
            let save = match &b.save {
                None => None,
                Some(s) => {
                    let p = PathBuf::from(s.get_ref());
                    if s.get_ref().is_empty() {
                        return cx.err(s.span(), &format!("{key}.save"), "is empty");
                    }
                    if p.is_absolute()
                        || p.components().any(|c| c == std::path::Component::ParentDir)
                    {
                        return cx.err(
                            s.span(),
                            &format!("{key}.save"),
                            "must be a relative path without `..`",
                        );
                    }
                    if !saves.insert(p.clone()) {
                        return cx.err(
                            s.span(),
                            &format!("{key}.save"),
                            format!("`{}` is saved by another buffer too", p.display()),
                        );
                    }
                    Some(p)
                }
            };
            buffers.push(BufferSpec {
                name: name.clone(),
                ty,
                len,
                init,
                save,
                line: cx.line(span.start),
            });
        }
        buffers.sort_by_key(|b| b.line);

        let mut launches = Vec::new();
        for (i, l) in raw.launch.iter().enumerate() {
            let span = l.span();
            let l = l.get_ref();
            let key = format!("launch[{i}]");
            let dim3 = |v: &Spanned<toml::Value>, k: &str| -> Result<[u32; 3], SpecError> {
                let key = format!("{key}.{k}");
                let vals: Vec<&toml::Value> = match v.get_ref() {
                    toml::Value::Array(a) => a.iter().collect(),
                    other => vec![other],
                };
                if vals.is_empty() || vals.len() > 3 {
                    return cx.err(v.span(), &key, "must be 1 to 3 positive integers");
                }
                let mut out = [1u32; 3];
                for (j, x) in vals.iter().enumerate() {
                    match x {
                        toml::Value::Integer(n) if *n >= 1 && *n <= i64::from(u32::MAX) => {
                            out[j] = *n as u32
                        }
                        _ => {
                            return cx.err(v.span(), &key, "must be 1 to 3 positive integers");
                        }
                    }
                }
                Ok(out)
            };
            let grid = dim3(&l.grid, "grid")?;
            let block = dim3(&l.block, "block")?;
            if grid[1] > 65535 || grid[2] > 65535 {
                return cx.err(
                    l.grid.span(),
                    &format!("{key}.grid"),
                    "y and z extents are limited to 65535",
                );
            }
            if grid[0] > (1 << 31) - 1 {
                return cx.err(
                    l.grid.span(),
                    &format!("{key}.grid"),
                    "x extent is limited to 2^31 - 1",
                );
            }
            let threads = u64::from(block[0]) * u64::from(block[1]) * u64::from(block[2]);
            if threads > 1024 {
                return cx.err(
                    l.block.span(),
                    &format!("{key}.block"),
                    format!("{threads} threads per block; at most 1024"),
                );
            }
            let shared_bytes = match &l.shared_bytes {
                None => 0,
                Some(v) => match v.get_ref() {
                    toml::Value::Integer(n) if (0..=232448).contains(n) => *n as u32,
                    _ => {
                        return cx.err(
                            v.span(),
                            &format!("{key}.shared_bytes"),
                            "must be an integer from 0 to 232448 (227 KiB)",
                        );
                    }
                },
            };
            let repeat = match &l.repeat {
                None => None,
                Some(v) => Some(parse_repeat(&cx, v, &format!("{key}.repeat"))?),
            };
            let mut args = Vec::new();
            let mut arg_lines = Vec::new();
            for (j, a) in l.args.iter().enumerate() {
                let akey = format!("{key}.args[{j}]");
                let arg = parse_arg(&cx, a, &akey, &raw.buffer, repeat.as_ref())?;
                args.push(arg);
                arg_lines.push(cx.line(a.span().start));
            }
            if l.kernel.get_ref().is_empty() {
                return cx.err(l.kernel.span(), &format!("{key}.kernel"), "is empty");
            }
            launches.push(LaunchEntry {
                kernel: l.kernel.get_ref().clone(),
                grid,
                block,
                shared_bytes,
                args,
                repeat,
                line: cx.line(span.start),
                arg_lines,
            });
        }
        if launches.is_empty() {
            return Err(SpecError {
                file: path.to_path_buf(),
                line: None,
                key: "launch".into(),
                message: "the spec has no [[launch]] entries".into(),
            });
        }
        let mut cache: Vec<SpecSetting> = raw
            .cache
            .iter()
            .map(|(k, v)| SpecSetting {
                key: k.clone(),
                value: v.get_ref().clone(),
                line: cx.line(v.span().start),
            })
            .collect();
        cache.sort_by_key(|s| s.line);
        Ok(LaunchSpec {
            path: path.to_path_buf(),
            module,
            module_line,
            buffers,
            launches,
            cache,
        })
    }

    /// Directory the spec's relative paths are resolved against.
    pub fn dir(&self) -> PathBuf {
        self.path.parent().unwrap_or(Path::new(".")).to_path_buf()
    }
}

fn as_scalar(v: &toml::Value) -> Option<Scalar> {
    match v {
        toml::Value::Integer(i) => Some(Scalar::Int(i128::from(*i))),
        toml::Value::Float(f) => Some(Scalar::Float(*f)),
        _ => None,
    }
}

/// Checks that a number fits `ty`; returns its bits.
pub fn scalar_bits(s: Scalar, ty: ElemType) -> Result<u64, String> {
    if ty.is_float() {
        return Ok(ty.float_bits(s.as_f64()));
    }
    let i = match s {
        Scalar::Int(i) => i,
        Scalar::Float(f) => {
            if f.fract() != 0.0 || !f.is_finite() {
                return Err(format!(
                    "{f} is not an integer, but the type is {}",
                    ty.name()
                ));
            }
            f as i128
        }
    };
    let (lo, hi) = ty.int_range();
    if i < lo || i > hi {
        return Err(format!("{i} does not fit {} ({lo}..={hi})", ty.name()));
    }
    Ok(i as u64 & mask_bits(ty.size() * 8))
}

fn mask_bits(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

fn parse_init(
    cx: &Ctx<'_>,
    v: &Spanned<toml::Value>,
    key: &str,
    ty: ElemType,
    dir: &Path,
) -> Result<Init, SpecError> {
    let span = v.span();
    let expected = "expected \"zeros\", \"iota\", { constant = X }, \
                    { random = { seed = N, min = A, max = B } } or { file = \"path\" }";
    match v.get_ref() {
        toml::Value::String(s) => match s.as_str() {
            "zeros" => Ok(Init::Zeros),
            "iota" => Ok(Init::Iota),
            other => cx.err(span, key, format!("unknown init `{other}`; {expected}")),
        },
        toml::Value::Table(t) => {
            if t.len() != 1 {
                return cx.err(span, key, format!("needs exactly one key; {expected}"));
            }
            let (k, val) = t
                .iter()
                .next()
                .ok_or(())
                .or_else(|()| cx.err(span.clone(), key, expected))?;
            match k.as_str() {
                "constant" => {
                    let s = as_scalar(val).ok_or(()).or_else(|()| {
                        cx.err(span.clone(), &format!("{key}.constant"), "must be a number")
                    })?;
                    if let Err(m) = scalar_bits(s, ty) {
                        return cx.err(span, &format!("{key}.constant"), m);
                    }
                    Ok(Init::Constant(s))
                }
                "random" => {
                    let toml::Value::Table(r) = val else {
                        return cx.err(
                            span,
                            &format!("{key}.random"),
                            "must be a table { seed = N, min = A, max = B }",
                        );
                    };
                    for k in r.keys() {
                        if !matches!(k.as_str(), "seed" | "min" | "max") {
                            return cx.err(
                                span,
                                &format!("{key}.random.{k}"),
                                "unknown key; expected seed, min, max",
                            );
                        }
                    }
                    let seed = match r.get("seed") {
                        None => 0,
                        Some(toml::Value::Integer(n)) if *n >= 0 => *n as u64,
                        Some(_) => {
                            return cx.err(
                                span,
                                &format!("{key}.random.seed"),
                                "must be a non-negative integer",
                            );
                        }
                    };
                    let (dmin, dmax) = if ty.is_float() {
                        (Scalar::Float(0.0), Scalar::Float(1.0))
                    } else {
                        (Scalar::Int(0), Scalar::Int(100))
                    };
                    let get = |name: &str, d: Scalar| -> Result<Scalar, SpecError> {
                        match r.get(name) {
                            None => Ok(d),
                            Some(x) => {
                                let s = as_scalar(x).ok_or(()).or_else(|()| {
                                    cx.err(
                                        span.clone(),
                                        &format!("{key}.random.{name}"),
                                        "must be a number",
                                    )
                                })?;
                                if let Err(m) = scalar_bits(s, ty) {
                                    return cx.err(
                                        span.clone(),
                                        &format!("{key}.random.{name}"),
                                        m,
                                    );
                                }
                                if !ty.is_float() && matches!(s, Scalar::Float(_)) {
                                    return cx.err(
                                        span.clone(),
                                        &format!("{key}.random.{name}"),
                                        "must be an integer for an integer buffer",
                                    );
                                }
                                Ok(s)
                            }
                        }
                    };
                    let min = get("min", dmin)?;
                    let max = get("max", dmax)?;
                    let bad = match (min, max) {
                        (Scalar::Int(a), Scalar::Int(b)) => a > b,
                        (a, b) => {
                            a.as_f64() > b.as_f64()
                                || !a.as_f64().is_finite()
                                || !b.as_f64().is_finite()
                        }
                    };
                    if bad {
                        return cx.err(span, &format!("{key}.random"), "needs finite min <= max");
                    }
                    Ok(Init::Random { seed, min, max })
                }
                "file" => {
                    let toml::Value::String(p) = val else {
                        return cx.err(span, &format!("{key}.file"), "must be a path string");
                    };
                    Ok(Init::File(dir.join(p)))
                }
                other => cx.err(
                    span,
                    &format!("{key}.{other}"),
                    format!("unknown init; {expected}"),
                ),
            }
        }
        _ => cx.err(span, key, expected),
    }
}

fn parse_repeat(cx: &Ctx<'_>, v: &Spanned<toml::Value>, key: &str) -> Result<Repeat, SpecError> {
    let span = v.span();
    let toml::Value::Table(t) = v.get_ref() else {
        return cx.err(
            span,
            key,
            "must be a table { var = \"t\", from = A, to = B }",
        );
    };
    for k in t.keys() {
        if !matches!(k.as_str(), "var" | "from" | "to" | "step") {
            return cx.err(
                span,
                &format!("{key}.{k}"),
                "unknown key; expected var, from, to, step",
            );
        }
    }
    let var = match t.get("var") {
        Some(toml::Value::String(s)) if !s.is_empty() => s.clone(),
        _ => return cx.err(span, &format!("{key}.var"), "must be a non-empty string"),
    };
    let int = |k: &str, d: Option<i64>| -> Result<i64, SpecError> {
        match (t.get(k), d) {
            (Some(toml::Value::Integer(n)), _) => Ok(*n),
            (None, Some(d)) => Ok(d),
            _ => cx.err(span.clone(), &format!("{key}.{k}"), "must be an integer"),
        }
    };
    let from = int("from", None)?;
    let to = int("to", None)?;
    let step = int("step", Some(1))?;
    if step <= 0 {
        return cx.err(span, &format!("{key}.step"), "must be positive");
    }
    if to < from {
        return cx.err(
            span,
            &format!("{key}.to"),
            "is below `from` (`to` is inclusive)",
        );
    }
    if (to - from) / step > 10_000_000 {
        return cx.err(span, key, "more than 10 million repetitions");
    }
    Ok(Repeat {
        var,
        from,
        to,
        step,
    })
}

fn parse_arg(
    cx: &Ctx<'_>,
    v: &Spanned<toml::Value>,
    key: &str,
    buffers: &BTreeMap<String, Spanned<RawBuffer>>,
    repeat: Option<&Repeat>,
) -> Result<Arg, SpecError> {
    let span = v.span();
    let expected = "expected { buffer = \"name\" [, offset = N] }, { TYPE = value } \
                    (e.g. { u32 = 7 }) or { var = \"name\" }";
    let toml::Value::Table(t) = v.get_ref() else {
        return cx.err(span, key, expected);
    };
    if let Some(b) = t.get("buffer") {
        for k in t.keys() {
            if !matches!(k.as_str(), "buffer" | "offset") {
                return cx.err(
                    span,
                    &format!("{key}.{k}"),
                    "unknown key; expected buffer, offset",
                );
            }
        }
        let toml::Value::String(name) = b else {
            return cx.err(span, &format!("{key}.buffer"), "must be a buffer name");
        };
        let Some(buf) = buffers.get(name) else {
            let mut names: Vec<&String> = buffers.keys().collect();
            names.sort();
            return cx.err(
                span,
                &format!("{key}.buffer"),
                format!(
                    "no buffer named `{name}` (declared: {})",
                    names
                        .iter()
                        .map(|n| n.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            );
        };
        let offset = match t.get("offset") {
            None => 0,
            Some(toml::Value::Integer(n)) if *n >= 0 => *n as u64,
            Some(_) => {
                return cx.err(
                    span,
                    &format!("{key}.offset"),
                    "must be a non-negative byte count",
                );
            }
        };
        // Check the offset against the buffer size when both are plain.
        let b = buf.get_ref();
        if let (Some(ty), toml::Value::Integer(len)) =
            (ElemType::parse(b.ty.get_ref()), b.len.get_ref())
            && offset > (*len as u64).saturating_mul(u64::from(ty.size()))
        {
            return cx.err(
                span,
                &format!("{key}.offset"),
                format!("{offset} bytes is past the end of buffer `{name}`"),
            );
        }
        return Ok(Arg::Buffer {
            name: name.clone(),
            offset,
        });
    }
    if let Some(var) = t.get("var") {
        let toml::Value::String(name) = var else {
            return cx.err(
                span,
                &format!("{key}.var"),
                "must be the repeat variable's name",
            );
        };
        if t.len() != 1 {
            return cx.err(span, key, "a { var = ... } argument takes no other keys");
        }
        match repeat {
            Some(r) if r.var == *name => {}
            Some(r) => {
                return cx.err(
                    span,
                    &format!("{key}.var"),
                    format!("the repeat variable is `{}`, not `{name}`", r.var),
                );
            }
            None => {
                return cx.err(
                    span,
                    &format!("{key}.var"),
                    "this launch has no `repeat`, so there is no variable",
                );
            }
        }
        return Ok(Arg::Var { name: name.clone() });
    }
    if t.len() != 1 {
        return cx.err(span, key, expected);
    }
    let Some((k, val)) = t.iter().next() else {
        return cx.err(span, key, expected);
    };
    let Some(ty) = ElemType::parse(k) else {
        return cx.err(
            span,
            &format!("{key}.{k}"),
            format!("unknown argument kind; {expected}"),
        );
    };
    let s = as_scalar(val)
        .ok_or(())
        .or_else(|()| cx.err(span.clone(), &format!("{key}.{k}"), "must be a number"))?;
    match scalar_bits(s, ty) {
        Ok(bits) => Ok(Arg::Scalar { ty, bits }),
        Err(m) => cx.err(span, &format!("{key}.{k}"), m),
    }
}

#[cfg(test)]
mod tests;
