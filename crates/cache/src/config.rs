//! What cache is modelled: L1 and L2 geometry, the capacity test of GRAB's `miss*`, and the
//! sweep lists, from the command line and the launch spec's `[cache]` table.
//!
//! Defaults are an H100 SXM's; each carries its source in [`DEFAULT_SOURCES`] (printed by
//! `docs/cache.md` and by the text report). Every mistake is a [`ConfigError`] naming the flag
//! (`--l1`) or the spec key (`corpus/x.toml:12: cache.l1_assoc`).

use serde::Serialize;
use std::fmt;
use warpscope_emu::{LaunchSpec, SchedulerKind, SpecSetting};

/// Bytes of a sector: the unit the L1 and L2 fill and count (Nsight Compute's "sector").
pub const SECTOR_BYTES: u32 = warpscope_cost::SECTOR_BYTES as u32;
/// Default line size (four sectors).
pub const LINE_BYTES: u32 = warpscope_cost::LINE_BYTES as u32;
/// The H100's unified L1 data cache / shared memory per SM.
pub const UNIFIED_L1_SHARED: u64 = 256 * 1024;
/// Shared-memory carve-outs an sm_90 SM can be configured with, in KiB.
pub const CARVEOUTS_KIB: [u64; 10] = [0, 8, 16, 32, 64, 100, 132, 164, 196, 228];
/// Shared memory the driver reserves per resident block.
pub const RESERVED_SHARED_PER_BLOCK: u64 = 1024;
/// The H100 SXM's L2.
pub const L2_BYTES: u64 = 50 * 1024 * 1024;
/// L2 associativity (not published; an assumption).
pub const L2_WAYS: u32 = 16;
/// Sets of the default L1 (ways follow from the size).
pub const L1_DEFAULT_SETS: u64 = 4;
/// Cycles a warp waits after a global load under the cache model's default schedule.
pub const MEMORY_LATENCY: u32 = warpscope_emu::sched::MEMORY_LATENCY as u32;

/// Each default and where it comes from (shown by `docs/cache.md` and the text report).
pub const DEFAULT_SOURCES: [(&str, &str, &str); 8] = [
    (
        "SMs",
        "132",
        "NVIDIA H100 Tensor Core GPU Architecture whitepaper: H100 SXM5 has 132 SMs",
    ),
    (
        "L1 size",
        "256 KiB minus the shared-memory carve-out",
        "H100 whitepaper: 256 KB of combined L1 data cache and shared memory per SM; CUDA C++ \
         Programming Guide, compute capability 9.0: carve-outs of 0, 8, 16, 32, 64, 100, 132, \
         164, 196 or 228 KB; the smallest carve-out holding the resident blocks' shared memory \
         (plus 1 KB reserved per block) is assumed",
    ),
    (
        "L1 line / sector",
        "128 B lines of four 32 B sectors",
        "Nsight Compute Kernel Profiling Guide, memory tables: a sector is an aligned 32-byte \
         chunk, a 128-byte cache line is four sectors",
    ),
    (
        "L1 associativity",
        "4 sets (ways = lines / 4)",
        "not published by NVIDIA; Accel-Sim's validated Volta/Ampere models use a 4-set, \
         highly associative sectored L1 (an assumption, change it with --l1-assoc)",
    ),
    (
        "L1 policy",
        "LRU; loads allocate; stores write through without allocating",
        "Volta and Hopper tuning guides: the L1 is write-through for global memory; \
         Accel-Sim's L1 model (LRU, allocate on miss, write-through, no write-allocate)",
    ),
    (
        "L2 size",
        "50 MiB",
        "H100 whitepaper: 50 MB L2 cache on H100 SXM5",
    ),
    (
        "L2 associativity",
        "16 ways",
        "not published; an assumption (change it with --l2-assoc)",
    ),
    (
        "L2 state at launch",
        "empty",
        "Nsight Compute flushes all caches before each profiled kernel by default \
         (--cache-control all), which is what the H100 comparison measures",
    ),
];

/// How large an L1 is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum L1Size {
    /// 256 KiB minus the carve-out the launch's shared memory needs.
    Auto,
    Bytes(u64),
}

impl fmt::Display for L1Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            L1Size::Auto => f.write_str("auto"),
            L1Size::Bytes(b) => f.write_str(&format_size(*b)),
        }
    }
}

/// How many ways an L1 set has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ways {
    /// As many as make [`L1_DEFAULT_SETS`] sets.
    Auto,
    N(u32),
}

impl fmt::Display for Ways {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ways::Auto => f.write_str("auto"),
            Ways::N(n) => write!(f, "{n}"),
        }
    }
}

/// When a miss is GRAB's `miss*` (capacity) rather than `miss`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CapacityTest {
    /// Every line of the SM's L1 holds a block (the paper's Equation 1).
    #[default]
    Cache,
    /// Every way of the accessed set holds a block.
    Set,
}

/// A concrete cache geometry: `bytes = sets × ways × line`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Geometry {
    pub bytes: u64,
    pub line: u32,
    pub ways: u32,
}

impl Geometry {
    /// Checks `bytes` is a positive multiple of `line × ways`.
    pub fn new(bytes: u64, line: u32, ways: u32) -> Result<Geometry, String> {
        if ways == 0 {
            return Err("the associativity must be at least 1 way".into());
        }
        check_line(line)?;
        let way_bytes = u64::from(line) * u64::from(ways);
        if bytes == 0 || !bytes.is_multiple_of(way_bytes) {
            return Err(format!(
                "{} is not a positive multiple of line × ways = {line} B × {ways} = {}",
                format_size(bytes),
                format_size(way_bytes)
            ));
        }
        Ok(Geometry { bytes, line, ways })
    }

    pub fn sets(&self) -> u64 {
        self.bytes / (u64::from(self.line) * u64::from(self.ways))
    }

    pub fn lines(&self) -> u64 {
        self.bytes / u64::from(self.line)
    }

    /// Sectors per line (1 to 8).
    pub fn sectors_per_line(&self) -> u32 {
        self.line / SECTOR_BYTES
    }
}

fn check_line(line: u32) -> Result<(), String> {
    if !line.is_power_of_two() || !(SECTOR_BYTES..=8 * SECTOR_BYTES).contains(&line) {
        return Err(format!(
            "line size {line} B: expected a power of two from 32 to 256 bytes"
        ));
    }
    Ok(())
}

/// One cache configuration analysed (one column of a sweep).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct CacheConfig {
    pub l1: L1Size,
    pub l1_ways: Ways,
    pub line: u32,
    pub l2_bytes: u64,
    pub l2_ways: u32,
    pub capacity: CapacityTest,
}

impl CacheConfig {
    /// The L1 of a launch whose blocks use `shared_per_block` bytes with `blocks_per_sm`
    /// resident. An explicit size was validated up front; an automatic size is rounded down
    /// to a multiple of `line × ways` when it is not one.
    pub fn l1_geometry(&self, shared_per_block: u32, blocks_per_sm: u32) -> Geometry {
        let bytes = match self.l1 {
            L1Size::Bytes(b) => b,
            L1Size::Auto => auto_l1_bytes(shared_per_block, blocks_per_sm),
        };
        let ways = match self.l1_ways {
            Ways::N(n) => n,
            Ways::Auto => (bytes / u64::from(self.line) / L1_DEFAULT_SETS).max(1) as u32,
        };
        let way_bytes = u64::from(self.line) * u64::from(ways);
        let bytes = (bytes / way_bytes).max(1) * way_bytes;
        Geometry {
            bytes,
            line: self.line,
            ways,
        }
    }

    pub fn l2_geometry(&self) -> Geometry {
        Geometry {
            bytes: self.l2_bytes,
            line: self.line,
            ways: self.l2_ways,
        }
    }

    /// A short label: `256K/auto/128B`.
    pub fn label(&self) -> String {
        format!("{} {}-way {}B", self.l1, self.l1_ways, self.line)
    }
}

/// The L1 left by the carve-out a launch needs.
pub fn auto_l1_bytes(shared_per_block: u32, blocks_per_sm: u32) -> u64 {
    let need = if shared_per_block == 0 {
        0
    } else {
        u64::from(blocks_per_sm) * (u64::from(shared_per_block) + RESERVED_SHARED_PER_BLOCK)
    };
    let carve = CARVEOUTS_KIB
        .iter()
        .map(|k| k * 1024)
        .find(|&c| c >= need)
        .unwrap_or(228 * 1024);
    UNIFIED_L1_SHARED - carve
}

/// Everything `warpscope cache` runs: the cross product of the lists is the sweep.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub l1: Vec<L1Size>,
    pub l1_ways: Vec<Ways>,
    pub line: Vec<u32>,
    pub schedulers: Vec<SchedulerKind>,
    pub l2_bytes: u64,
    pub l2_ways: u32,
    pub capacity: CapacityTest,
    pub memory_latency: u32,
    /// SMs to model (None: the emulator's default, 132).
    pub sms: Option<u32>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            l1: vec![L1Size::Auto],
            l1_ways: vec![Ways::Auto],
            line: vec![LINE_BYTES],
            schedulers: vec![SchedulerKind::Gto],
            l2_bytes: L2_BYTES,
            l2_ways: L2_WAYS,
            capacity: CapacityTest::Cache,
            memory_latency: MEMORY_LATENCY,
            sms: None,
        }
    }
}

impl Settings {
    /// The cache configurations of the sweep (schedulers apart), in list order.
    pub fn configs(&self) -> Vec<CacheConfig> {
        let mut out = Vec::new();
        for &line in &self.line {
            for &l1_ways in &self.l1_ways {
                for &l1 in &self.l1 {
                    out.push(CacheConfig {
                        l1,
                        l1_ways,
                        line,
                        l2_bytes: self.l2_bytes,
                        l2_ways: self.l2_ways,
                        capacity: self.capacity,
                    });
                }
            }
        }
        out
    }

    /// Checks every combination is a possible cache; `origin(key)` names where each list
    /// came from (a flag or a spec key) for the error.
    pub fn validate(&self, origin: &dyn Fn(&str) -> String) -> Result<(), ConfigError> {
        for &line in &self.line {
            check_line(line).map_err(|m| ConfigError::new(origin("line"), m))?;
        }
        for &w in &self.l1_ways {
            if w == Ways::N(0) {
                return Err(ConfigError::new(
                    origin("l1_assoc"),
                    "the associativity must be at least 1 way",
                ));
            }
        }
        for c in self.configs() {
            if let (L1Size::Bytes(b), Ways::N(w)) = (c.l1, c.l1_ways) {
                Geometry::new(b, c.line, w).map_err(|m| ConfigError::new(origin("l1"), m))?;
            }
            if let L1Size::Bytes(b) = c.l1
                && b < u64::from(c.line)
            {
                return Err(ConfigError::new(
                    origin("l1"),
                    format!(
                        "{} is smaller than one {}-byte line",
                        format_size(b),
                        c.line
                    ),
                ));
            }
            Geometry::new(c.l2_bytes, c.line, c.l2_ways)
                .map_err(|m| ConfigError::new(origin("l2"), m))?;
        }
        if self.schedulers.is_empty() {
            return Err(ConfigError::new(origin("scheduler"), "no scheduler given"));
        }
        Ok(())
    }

    /// Applies the spec's `[cache]` table.
    pub fn apply_spec(&mut self, spec: &LaunchSpec) -> Result<(), ConfigError> {
        for s in &spec.cache {
            let at = || format!("{}:{}: `cache.{}`", spec.path.display(), s.line, s.key);
            self.apply_setting(s)
                .map_err(|m| ConfigError::new(at(), m))?;
        }
        let origin = |k: &str| {
            let key = if k == "line" { "line_bytes" } else { k };
            match spec.cache.iter().find(|s| s.key == key) {
                Some(s) => format!("{}:{}: `cache.{}`", spec.path.display(), s.line, s.key),
                None => format!("{}: `cache.{key}`", spec.path.display()),
            }
        };
        self.validate(&origin)
    }

    fn apply_setting(&mut self, s: &SpecSetting) -> Result<(), String> {
        let text = |v: &toml::Value| -> Result<String, String> {
            match v {
                toml::Value::String(s) => Ok(s.clone()),
                toml::Value::Integer(n) => Ok(n.to_string()),
                toml::Value::Array(a) => {
                    let parts: Result<Vec<String>, String> = a
                        .iter()
                        .map(|x| match x {
                            toml::Value::String(s) => Ok(s.clone()),
                            toml::Value::Integer(n) => Ok(n.to_string()),
                            _ => Err("expected strings or integers".to_string()),
                        })
                        .collect();
                    Ok(parts?.join(","))
                }
                _ => Err("expected a string, an integer or a list of them".into()),
            }
        };
        let v = text(&s.value)?;
        match s.key.as_str() {
            "l1" => self.l1 = parse_l1_list(&v)?,
            "l1_assoc" => self.l1_ways = parse_ways_list(&v)?,
            "line_bytes" => self.line = parse_list(&v, parse_line)?,
            "scheduler" => self.schedulers = parse_list(&v, parse_scheduler)?,
            "l2" => self.l2_bytes = parse_size(&v)?,
            "l2_assoc" => self.l2_ways = parse_count(&v)?,
            "capacity" => self.capacity = parse_capacity(&v)?,
            "memory_latency" => {
                self.memory_latency = v
                    .parse()
                    .map_err(|_| format!("`{v}`: expected a number of cycles"))?
            }
            "sms" => match v.parse::<u32>() {
                Ok(n) if n > 0 => self.sms = Some(n),
                _ => return Err(format!("`{v}`: expected a positive number of SMs")),
            },
            other => {
                return Err(format!(
                    "unknown key `{other}`; expected one of l1, l1_assoc, line_bytes, scheduler, \
                     l2, l2_assoc, capacity, memory_latency, sms"
                ));
            }
        }
        Ok(())
    }
}

/// A configuration mistake, naming the flag or spec key at fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    /// `--l1`, or `file:line: \`cache.l1\``.
    pub origin: String,
    pub message: String,
}

impl ConfigError {
    pub fn new(origin: impl Into<String>, message: impl Into<String>) -> ConfigError {
        ConfigError {
            origin: origin.into(),
            message: message.into(),
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.origin, self.message)
    }
}

impl std::error::Error for ConfigError {}

/// Parses a size: `32K`, `256K`, `1M`, `50MB`, `4096` (bytes); K and M are 1024-based.
pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let lower = t.to_ascii_lowercase();
    let (num, mult) = if let Some(n) = lower
        .strip_suffix("kib")
        .or_else(|| lower.strip_suffix("kb"))
        .or_else(|| lower.strip_suffix('k'))
    {
        (n, 1024)
    } else if let Some(n) = lower
        .strip_suffix("mib")
        .or_else(|| lower.strip_suffix("mb"))
        .or_else(|| lower.strip_suffix('m'))
    {
        (n, 1024 * 1024)
    } else if let Some(n) = lower.strip_suffix('b') {
        (n, 1)
    } else {
        (lower.as_str(), 1)
    };
    let n: u64 = num.trim().parse().map_err(|_| {
        format!("`{t}` is not a size (expected e.g. 32K, 256K, 1M or a number of bytes)")
    })?;
    n.checked_mul(mult)
        .filter(|&b| b > 0)
        .ok_or_else(|| format!("`{t}`: the size must be positive and below 16 EiB"))
}

/// Formats bytes as the shortest of `N`, `NK`, `NM`.
pub fn format_size(b: u64) -> String {
    if b >= 1024 * 1024 && b.is_multiple_of(1024 * 1024) {
        format!("{}M", b / (1024 * 1024))
    } else if b >= 1024 && b.is_multiple_of(1024) {
        format!("{}K", b / 1024)
    } else {
        format!("{b}")
    }
}

/// Parses a comma-separated list with `item`.
pub fn parse_list<T>(s: &str, item: fn(&str) -> Result<T, String>) -> Result<Vec<T>, String> {
    let parts: Vec<&str> = s.split(',').map(str::trim).collect();
    if parts.iter().any(|p| p.is_empty()) {
        return Err(format!("`{s}` is not a comma-separated list (empty item)"));
    }
    parts.into_iter().map(item).collect()
}

/// `auto` or a size.
pub fn parse_l1(s: &str) -> Result<L1Size, String> {
    if s.eq_ignore_ascii_case("auto") {
        Ok(L1Size::Auto)
    } else {
        parse_size(s).map(L1Size::Bytes)
    }
}

pub fn parse_l1_list(s: &str) -> Result<Vec<L1Size>, String> {
    parse_list(s, parse_l1)
}

pub fn parse_count(s: &str) -> Result<u32, String> {
    match s.trim().parse::<u32>() {
        Ok(0) => Err("the associativity must be at least 1 way".into()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!("`{s}` is not a number of ways")),
    }
}

/// `auto` or a number of ways.
pub fn parse_ways(s: &str) -> Result<Ways, String> {
    if s.eq_ignore_ascii_case("auto") {
        Ok(Ways::Auto)
    } else {
        parse_count(s).map(Ways::N)
    }
}

pub fn parse_ways_list(s: &str) -> Result<Vec<Ways>, String> {
    parse_list(s, parse_ways)
}

pub fn parse_line(s: &str) -> Result<u32, String> {
    let b = parse_size(s)?;
    let b = u32::try_from(b).map_err(|_| format!("line size `{s}` is too large"))?;
    check_line(b)?;
    Ok(b)
}

/// `lrr`, `gto`, or `tl` / `two-level`.
pub fn parse_scheduler(s: &str) -> Result<SchedulerKind, String> {
    let t = s.trim().to_ascii_lowercase();
    match t.as_str() {
        "tl" => Ok(SchedulerKind::TwoLevel),
        _ => SchedulerKind::parse(&t)
            .ok_or_else(|| format!("unknown scheduler `{s}` (expected lrr, gto or tl)")),
    }
}

pub fn parse_capacity(s: &str) -> Result<CapacityTest, String> {
    match s.trim() {
        "cache" => Ok(CapacityTest::Cache),
        "set" => Ok(CapacityTest::Set),
        _ => Err(format!("`{s}`: expected `cache` or `set`")),
    }
}

/// A scheduler's short name as the CLI spells it.
pub fn scheduler_name(k: SchedulerKind) -> &'static str {
    match k {
        SchedulerKind::Lrr => "lrr",
        SchedulerKind::Gto => "gto",
        SchedulerKind::TwoLevel => "tl",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_size("32K"), Ok(32 * 1024));
        assert_eq!(parse_size("256k"), Ok(256 * 1024));
        assert_eq!(parse_size("1M"), Ok(1 << 20));
        assert_eq!(parse_size("50MB"), Ok(50 << 20));
        assert_eq!(parse_size("4096"), Ok(4096));
        assert!(parse_size("12Q").is_err());
        assert!(parse_size("0").is_err());
        assert_eq!(format_size(256 * 1024), "256K");
        assert_eq!(format_size(50 << 20), "50M");
        assert_eq!(format_size(100), "100");
    }

    #[test]
    fn lists_parse_and_reject_empty_items() {
        assert_eq!(
            parse_l1_list("16K,32K, auto"),
            Ok(vec![
                L1Size::Bytes(16384),
                L1Size::Bytes(32768),
                L1Size::Auto
            ])
        );
        assert!(parse_l1_list("16K,,32K").is_err());
        assert!(parse_l1_list("16K,x").is_err());
        assert_eq!(
            parse_list("lrr,gto,tl", parse_scheduler),
            Ok(vec![
                SchedulerKind::Lrr,
                SchedulerKind::Gto,
                SchedulerKind::TwoLevel
            ])
        );
    }

    #[test]
    fn geometry_must_divide() {
        assert!(Geometry::new(32 * 1024, 128, 4).is_ok());
        assert!(Geometry::new(1000, 128, 4).is_err());
        assert!(Geometry::new(32 * 1024, 128, 0).is_err());
        assert!(Geometry::new(32 * 1024, 96, 4).is_err());
        assert_eq!(Geometry::new(32 * 1024, 128, 4).unwrap().sets(), 64);
    }

    #[test]
    fn auto_l1_follows_the_carveout() {
        assert_eq!(auto_l1_bytes(0, 8), 256 * 1024);
        // 4 blocks × (4 KiB + 1 KiB) = 20 KiB → 32 KiB carve-out.
        assert_eq!(auto_l1_bytes(4096, 4), 224 * 1024);
        assert_eq!(auto_l1_bytes(48 * 1024, 4), 60 * 1024);
        assert_eq!(auto_l1_bytes(56 * 1024, 4), 28 * 1024);
        let c = Settings::default().configs()[0];
        let g = c.l1_geometry(0, 8);
        assert_eq!((g.bytes, g.ways, g.sets()), (256 * 1024, 512, 4));
    }
}
