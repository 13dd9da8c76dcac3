//! Launch geometry and parameter assumptions: the inputs that turn "thread-dependent" into
//! "diverges in 1 of 8 warps".
//!
//! Warps are 32 consecutive *linear* thread ids, `x + bx * (y + by * z)`, so a block narrower
//! than 32 in x puts several rows in one warp ([`Geometry::warp_lanes`] models that exactly).

use std::collections::BTreeMap;
use std::fmt;

/// Where the geometry of a kernel came from (printed with every result).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GeometrySource {
    /// `--block` / `--grid` on the command line.
    Flags,
    /// A `warpscope.toml` configuration file.
    Config,
    /// The kernel's `.reqntid` directive.
    Reqntid,
    /// The kernel's `.maxntid` directive (an upper bound, used as the block).
    Maxntid,
    /// A corpus `// geometry:` comment (tests only).
    Corpus,
    /// A `kernel<<<grid, block>>>` launch in the CUDA source (`sites`: how many launches of
    /// the kernel were read; the first resolved one is used).
    LaunchSite {
        file: String,
        line: u32,
        sites: usize,
    },
    /// A shared array indexed `[tid.y][tid.x]` with rows of this many elements.
    SharedTile { row: u32 },
    /// One of a few common 2-D shapes, tried because the kernel reads `%tid.y` and nothing
    /// said its shape.
    CommonShape,
    /// GPUCheck's default of 256 x 1 x 1 threads per block.
    Default,
    /// The default, kept for a kernel that reads `%tid.y` and `%tid.z` only inside its linear
    /// thread rank (cooperative groups' `thread_rank()`): its own indexing is 1-D.
    LinearRank,
}

impl fmt::Display for GeometrySource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GeometrySource::Flags => f.write_str("command line"),
            GeometrySource::Config => f.write_str("warpscope.toml"),
            GeometrySource::Reqntid => f.write_str(".reqntid"),
            GeometrySource::Maxntid => f.write_str(".maxntid"),
            GeometrySource::Corpus => f.write_str("corpus geometry comment"),
            GeometrySource::LaunchSite { file, line, sites } => {
                write!(f, "launch at {file}:{line}")?;
                if *sites > 1 {
                    write!(f, ", the first of {sites} launches")?;
                }
                Ok(())
            }
            GeometrySource::SharedTile { row } => write!(
                f,
                "inferred from a shared tile indexed [tid.y][tid.x] with rows of {row}"
            ),
            GeometrySource::CommonShape => f.write_str(
                "a common 2-D shape tried: the kernel reads %tid.y and nothing gave its block",
            ),
            GeometrySource::Default => f.write_str("default: GPUCheck's 256x1x1"),
            GeometrySource::LinearRank => f.write_str(
                "default: GPUCheck's 256x1x1; the kernel reads %tid.y and %tid.z only in its \
                 linear thread rank (as cooperative groups' thread_rank() does), so its own \
                 indexing is 1-D",
            ),
        }
    }
}

/// The launch geometry assumed for one kernel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Geometry {
    /// Threads per block (x, y, z).
    pub block: [u32; 3],
    /// Blocks per grid; `None` when unknown (block indices are then symbolic).
    pub grid: Option<[u32; 3]>,
    pub block_source: GeometrySource,
    pub grid_source: Option<GeometrySource>,
}

impl Default for Geometry {
    fn default() -> Self {
        Geometry {
            block: [256, 1, 1],
            grid: None,
            block_source: GeometrySource::Default,
            grid_source: None,
        }
    }
}

impl fmt::Display for Geometry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [x, y, z] = self.block;
        write!(f, "block {x}x{y}x{z} ({})", self.block_source)?;
        match (&self.grid, &self.grid_source) {
            (Some([a, b, c]), Some(s)) => write!(f, ", grid {a}x{b}x{c} ({s})"),
            (Some([a, b, c]), None) => write!(f, ", grid {a}x{b}x{c}"),
            _ => f.write_str(", grid unknown"),
        }
    }
}

/// Coordinates of one lane of a warp.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct LaneCoord {
    pub tid: [u32; 3],
    /// Linear thread id within the block.
    pub linear: u32,
}

impl Geometry {
    /// Threads per block.
    pub fn threads(&self) -> u32 {
        self.block.iter().product::<u32>().max(1)
    }

    /// Warps per block (a partial last warp counts).
    pub fn warps(&self) -> u32 {
        self.threads().div_ceil(32)
    }

    /// Blocks in the grid, when known.
    pub fn blocks(&self) -> Option<u64> {
        self.grid
            .map(|g| g.iter().map(|&v| u64::from(v.max(1))).product())
    }

    /// The lanes of warp `w`: coordinates of each existing lane (`None` past the block's end).
    pub fn warp_lanes(&self, w: u32) -> [Option<LaneCoord>; 32] {
        let [bx, by, _] = self.block;
        let n = self.threads();
        let mut out = [None; 32];
        for (k, slot) in out.iter_mut().enumerate() {
            let l = w * 32 + k as u32;
            if l < n {
                let x = l % bx;
                let y = (l / bx) % by;
                let z = l / (bx * by);
                *slot = Some(LaneCoord {
                    tid: [x, y, z],
                    linear: l,
                });
            }
        }
        out
    }

    /// Block index `i` (x fastest) as coordinates.
    pub fn block_coord(&self, i: u64) -> [u32; 3] {
        let [gx, gy, _] = self.grid.unwrap_or([1, 1, 1]);
        let (gx, gy) = (u64::from(gx.max(1)), u64::from(gy.max(1)));
        [
            (i % gx) as u32,
            ((i / gx) % gy) as u32,
            (i / (gx * gy)) as u32,
        ]
    }
}

/// What is assumed about one kernel parameter.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ParamAssumption {
    /// Exact value.
    pub value: Option<i64>,
    /// Inclusive range.
    pub range: Option<(i64, i64)>,
    /// Known alignment in bytes (pointers) or multiple (integers).
    pub align: Option<u64>,
    /// The values within [`Self::range`] the kernel is launched with, when only those are
    /// (launches read from host code passing different constants): each is examined, not a
    /// sample of the range.
    pub values: Option<Vec<i64>>,
    /// Where the value or range came from when it was not given (`from the launch at
    /// app.cu:152`); `None` for `--assume` and the configuration file.
    pub source: Option<String>,
}

impl ParamAssumption {
    /// `NAME = 240`, `NAME in 64..240`, `NAME aligned to 16`, with where it came from.
    pub fn describe(&self, name: &str) -> String {
        let mut s = name.to_string();
        if let Some(v) = self.value {
            s.push_str(&format!(" = {v}"));
        }
        match (&self.values, self.range) {
            (Some(v), _) => s.push_str(&format!(
                " in {{{}}}",
                v.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")
            )),
            (None, Some((lo, hi))) => s.push_str(&format!(" in {lo}..{hi}")),
            (None, None) => {}
        }
        if let Some(al) = self.align {
            s.push_str(&format!(", aligned to {al}"));
        }
        if let Some(src) = &self.source {
            s.push_str(&format!(" ({src})"));
        }
        s
    }
}

/// One `kernel<<<grid, block>>>(args...)` launch read from host code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostLaunch {
    /// The kernel's CUDA base name.
    pub kernel: String,
    /// The host source and 1-based line of the launch.
    pub file: String,
    pub line: u32,
    /// Blocks per grid and threads per block, when they resolved.
    pub grid: Option<[u32; 3]>,
    pub block: Option<[u32; 3]>,
    /// Each argument as written, with its value when it is a compile-time integer constant.
    pub args: Vec<(String, Option<i64>)>,
}

/// Assumptions by parameter name (CUDA name, or `#N` / PTX name for parameter N).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Assumptions {
    pub params: BTreeMap<String, ParamAssumption>,
}

impl Assumptions {
    /// Parses one `--assume` item: `n=1000`, `n=0..4096`, `ptr:align=16`, `a=2.5` (non-integer
    /// values are accepted and ignored).
    pub fn add(&mut self, item: &str) -> Result<(), String> {
        let item = item.trim();
        let (lhs, rhs) = item
            .split_once('=')
            .ok_or_else(|| format!("`{item}`: expected NAME=VALUE, NAME=LO..HI or NAME:align=N"))?;
        let (name, attr) = match lhs.split_once(':') {
            Some((n, a)) => (n.trim(), Some(a.trim())),
            None => (lhs.trim(), None),
        };
        if name.is_empty() {
            return Err(format!("`{item}`: empty parameter name"));
        }
        let entry = self.params.entry(name.to_string()).or_default();
        let parse = |s: &str| -> Result<i64, String> {
            let s = s.trim();
            let v = if let Some(h) = s.strip_prefix("0x") {
                i64::from_str_radix(h, 16)
            } else {
                s.parse::<i64>()
            };
            v.map_err(|_| format!("`{item}`: `{s}` is not an integer"))
        };
        match attr {
            Some("align") => {
                let a = parse(rhs)?;
                if a <= 0 || (a & (a - 1)) != 0 {
                    return Err(format!("`{item}`: alignment must be a power of two"));
                }
                entry.align = Some(a as u64);
            }
            Some(other) => return Err(format!("`{item}`: unknown attribute `{other}`")),
            None => {
                if let Some((lo, hi)) = rhs.split_once("..") {
                    let (lo, hi) = (parse(lo)?, parse(hi)?);
                    if lo > hi {
                        return Err(format!("`{item}`: empty range"));
                    }
                    entry.range = Some((lo, hi));
                } else if rhs.trim().parse::<f64>().is_ok() && rhs.trim().parse::<i64>().is_err() {
                    // A floating-point value: irrelevant to addresses and branches we model.
                } else {
                    entry.value = Some(parse(rhs)?);
                }
            }
        }
        Ok(())
    }

    /// The assumption for a parameter known by any of `names`.
    pub fn get<'a>(&'a self, names: &[&str]) -> Option<&'a ParamAssumption> {
        names.iter().find_map(|n| self.params.get(*n))
    }

    /// Merges `other` over `self` (other wins).
    pub fn extend(&mut self, other: &Assumptions) {
        for (k, v) in &other.params {
            self.params.insert(k.clone(), v.clone());
        }
    }
}

/// Parses `x,y,z` (missing trailing dimensions are 1).
pub fn parse_dim3(s: &str) -> Result<[u32; 3], String> {
    let parts: Vec<&str> = s.split(['x', ',', 'X']).map(str::trim).collect();
    if parts.is_empty() || parts.len() > 3 {
        return Err(format!("`{s}`: expected X[,Y[,Z]]"));
    }
    let mut out = [1u32; 3];
    for (i, p) in parts.iter().enumerate() {
        let v: u32 = p
            .parse()
            .map_err(|_| format!("`{s}`: `{p}` is not a positive integer"))?;
        if v == 0 {
            return Err(format!("`{s}`: dimensions must be positive"));
        }
        out[i] = v;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warps_hold_several_rows_of_narrow_blocks() {
        let g = Geometry {
            block: [8, 32, 1],
            ..Geometry::default()
        };
        let lanes = g.warp_lanes(1);
        assert_eq!(lanes[0].unwrap().tid, [0, 4, 0]);
        assert_eq!(lanes[9].unwrap().tid, [1, 5, 0]);
        assert_eq!(g.warps(), 8);
        let g = Geometry {
            block: [16, 16, 1],
            ..Geometry::default()
        };
        assert_eq!(g.warp_lanes(0)[17].unwrap().tid, [1, 1, 0]);
    }

    #[test]
    fn partial_last_warp() {
        let g = Geometry {
            block: [40, 1, 1],
            ..Geometry::default()
        };
        assert_eq!(g.warps(), 2);
        let l = g.warp_lanes(1);
        assert!(l[7].is_some() && l[8].is_none());
    }

    #[test]
    fn assumptions_parse() {
        let mut a = Assumptions::default();
        a.add("n=1000").unwrap();
        a.add("w=0..64").unwrap();
        a.add("p:align=16").unwrap();
        a.add("a=2.5").unwrap();
        assert_eq!(a.get(&["n"]).unwrap().value, Some(1000));
        assert_eq!(a.get(&["w"]).unwrap().range, Some((0, 64)));
        assert_eq!(a.get(&["p"]).unwrap().align, Some(16));
        assert_eq!(a.get(&["a"]).unwrap().value, None);
        assert!(a.add("x").is_err());
        assert!(a.add("p:align=3").is_err());
        assert_eq!(parse_dim3("16,16").unwrap(), [16, 16, 1]);
        assert_eq!(parse_dim3("8x32x1").unwrap(), [8, 32, 1]);
        assert!(parse_dim3("0,1,1").is_err());
    }
}
