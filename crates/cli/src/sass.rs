//! `--sass`: asking ptxas how it lowers each branch, instead of expecting it from the PTX.
//!
//! `auto` (the default; `$WARPSCOPE_SASS` changes it) uses ptxas when it is found
//! (`$CUDA_HOME/bin`, `PATH`, pip's `nvidia/cu13/bin`: the `nvidia-cuda-nvcc` wheel) and reads
//! the cubin it writes (no nvdisasm needed), `on` requires it, `off` never runs it. Each module is
//! compiled on a thread of its own while the analysis runs; the analysis waits for the listing
//! only when it words its branch findings. Line tables are kept on disk (see [`cache_dir`]),
//! so an unchanged module is not compiled twice.

use std::path::PathBuf;
use std::sync::OnceLock;
use warpscope_sass::{LineBranches, SassHandle, Toolchain};

/// The target the SASS is built for: the H100's.
pub const ARCH: &str = "sm_90";

/// What `--sass` asked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SassMode {
    Auto,
    On,
    Off,
}

impl SassMode {
    /// How long ptxas may run on one module: what `auto` adds to a check stays
    /// bounded (ptxas spends over a minute on HeCBench's largest modules), `on` waits longer.
    pub fn time_limit(self) -> std::time::Duration {
        std::time::Duration::from_secs(match self {
            SassMode::On => 300,
            _ => 10,
        })
    }

    /// `--sass VALUE`, else `$WARPSCOPE_SASS`, else `auto`.
    pub fn resolve(flag: Option<&str>) -> Result<SassMode, String> {
        let env = std::env::var("WARPSCOPE_SASS").ok();
        let (value, from) = match (flag, env.as_deref()) {
            (Some(v), _) => (v.to_string(), "--sass"),
            (None, Some(v)) if !v.is_empty() => (v.to_string(), "WARPSCOPE_SASS"),
            _ => return Ok(SassMode::Auto),
        };
        match value.as_str() {
            "auto" => Ok(SassMode::Auto),
            "on" => Ok(SassMode::On),
            "off" => Ok(SassMode::Off),
            v => Err(format!(
                "{from}: unknown value `{v}` (expected auto, on or off)"
            )),
        }
    }
}

/// The tools and the words the report uses for them, looked up once per run.
pub struct Sass {
    tools: Toolchain,
    produced_by: String,
}

/// Finds ptxas for `mode`: `Ok(None)` when SASS is off, or `auto` found none; `Err` when `on`
/// found none.
pub fn tools(mode: SassMode) -> Result<Option<&'static Sass>, String> {
    static FOUND: OnceLock<Option<Sass>> = OnceLock::new();
    if mode == SassMode::Off {
        return Ok(None);
    }
    let found = FOUND.get_or_init(|| {
        let ptxas = warpscope_frontend::toolchain::find_cuda_tool("ptxas")?;
        let tools = Toolchain::ptxas_only(ptxas);
        let version = tools
            .ptxas_version()
            .unwrap_or_else(|| "(version unknown)".into());
        Some(Sass {
            tools,
            produced_by: format!("ptxas {version} for {ARCH}"),
        })
    });
    match (found, mode) {
        (Some(s), _) => Ok(Some(s)),
        (None, SassMode::On) => Err(
            "--sass on: ptxas is needed (looked in $CUDA_HOME/bin, PATH and pip's \
             site-packages nvidia/cu13/bin; `pip install nvidia-cuda-nvcc==13.0.88` provides \
             it)"
            .to_string(),
        ),
        (None, _) => Ok(None),
    }
}

/// Where line tables are kept between runs: `$WARPSCOPE_CACHE_DIR` (empty: nowhere), else
/// `$XDG_CACHE_HOME/warpscope/sass`, else `~/.cache/warpscope/sass`.
fn cache_dir() -> Option<PathBuf> {
    if let Some(d) = std::env::var_os("WARPSCOPE_CACHE_DIR") {
        return (!d.is_empty()).then(|| PathBuf::from(d));
    }
    let base = std::env::var_os("XDG_CACHE_HOME")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
    Some(base.join("warpscope").join("sass"))
}

/// Starts compiling `ptx` on a thread (or reading the table an earlier run kept for the same
/// text and tools); the handle gets the line table or the reason there is none.
pub fn start(sass: &'static Sass, ptx: String, mode: SassMode) -> SassHandle {
    let handle = SassHandle::new();
    let h = handle.clone();
    let mut tools = sass.tools.clone();
    tools.time_limit = mode.time_limit();
    std::thread::spawn(move || {
        let tools_id = format!(
            "{} {} cubin-reader-1",
            sass.tools.ptxas.display(),
            sass.produced_by
        );
        let file = cache_dir().map(|d| warpscope_sass::cache::path(&d, &tools_id, ARCH, &ptx));
        if let Some(t) = file.as_deref().and_then(warpscope_sass::cache::load) {
            h.set(Ok(t));
            return;
        }
        let answer = warpscope_sass::compile(&tools, &ptx, ARCH)
            .map(|l| LineBranches::new(&l, sass.produced_by.clone()))
            .map_err(|e| match e {
                warpscope_sass::SassError::Timeout { .. } if mode != SassMode::On => format!(
                    "{e} (`--sass on` allows {} s)",
                    SassMode::On.time_limit().as_secs()
                ),
                e => e.to_string(),
            });
        if let (Some(f), Ok(t)) = (&file, &answer) {
            warpscope_sass::cache::store(f, t);
        }
        h.set(answer);
    });
    handle
}
