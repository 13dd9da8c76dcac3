//! Finding a CUDA compiler and turning a `.cu` file into PTX.
//!
//! Search order for nvcc: an explicit `--nvcc` path, `$CUDA_HOME/bin/nvcc` (and `$CUDA_PATH`),
//! `nvcc` on `PATH`, then a pip-installed `nvidia-cuda-nvcc` (`<site-packages>/nvidia/cu13/bin`
//! or `cu12`). Failing all of those, `clang`/`clang-19` with CUDA support is used.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

/// How to produce PTX from CUDA.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Compiler {
    /// NVIDIA's nvcc at this path.
    Nvcc(PathBuf),
    /// LLVM clang at this path (CUDA device-only compilation).
    Clang(PathBuf),
}

/// Options for compiling CUDA to PTX.
#[derive(Debug, Clone)]
pub struct CompileOptions {
    /// Explicit compiler path (`--nvcc`); an executable named `clang*` is driven as clang.
    pub compiler: Option<PathBuf>,
    /// Virtual architecture, e.g. `sm_90`.
    pub arch: String,
    /// Extra flags passed through verbatim (`-I`, `-D`, ...).
    pub extra_flags: Vec<OsString>,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            compiler: None,
            arch: "sm_90".to_string(),
            extra_flags: Vec::new(),
        }
    }
}

/// Why compiling CUDA failed.
#[derive(Debug, thiserror::Error)]
pub enum CompileError {
    #[error(
        "no CUDA compiler found: looked for nvcc in --nvcc, $CUDA_HOME/bin, PATH and pip's \
         site-packages (nvidia/cu13/bin), and for clang on PATH.\n\
         help: install nvcc with `pip install nvidia-cuda-nvcc==13.0.88 nvidia-nvvm==13.0.88 \
         nvidia-cuda-crt==13.0.88 nvidia-cuda-runtime==13.0.96`, or pass --nvcc PATH, or give \
         warpscope a .ptx file"
    )]
    NotFound,
    #[error("the compiler given with --nvcc does not exist: {0}")]
    MissingExplicit(PathBuf),
    #[error("could not run {compiler}: {source}")]
    Spawn {
        compiler: PathBuf,
        source: std::io::Error,
    },
    #[error("{compiler} failed on {input} (exit status {status}):\n{stderr}")]
    Failed {
        compiler: PathBuf,
        input: PathBuf,
        status: String,
        stderr: String,
    },
    #[error("could not read the compiler's output {path}: {source}")]
    Output {
        path: PathBuf,
        source: std::io::Error,
    },
}

fn is_executable(p: &Path) -> bool {
    p.is_file()
}

fn search_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| is_executable(p))
}

/// Finds one of the CUDA toolkit's programs (`ptxas`, `nvdisasm`, ...) the way nvcc is found:
/// `$CUDA_HOME/bin` (and `$CUDA_PATH`), `PATH`, then pip's `nvidia/cu13/bin` (`cu12`) in the
/// site-packages of the `python3` on PATH (the `nvidia-cuda-nvcc` and `nvidia-cuda-nvdisasm`
/// wheels put them there).
pub fn find_cuda_tool(name: &str) -> Option<PathBuf> {
    for var in ["CUDA_HOME", "CUDA_PATH"] {
        if let Some(home) = std::env::var_os(var) {
            let p = PathBuf::from(home).join("bin").join(name);
            if is_executable(&p) {
                return Some(p);
            }
        }
    }
    if let Some(p) = search_path(name) {
        return Some(p);
    }
    python_site_packages().into_iter().find_map(|sp| {
        ["cu13", "cu12"].into_iter().find_map(|cu| {
            let p = sp.join("nvidia").join(cu).join("bin").join(name);
            is_executable(&p).then_some(p)
        })
    })
}

/// Site-packages directories of the `python3` on PATH (empty when there is none); asked once
/// per process (starting python costs a tenth of a second or more).
fn python_site_packages() -> Vec<PathBuf> {
    static DIRS: std::sync::OnceLock<Vec<PathBuf>> = std::sync::OnceLock::new();
    DIRS.get_or_init(ask_python_site_packages).clone()
}

fn ask_python_site_packages() -> Vec<PathBuf> {
    let script = "import site,sys\n\
                  p=list(site.getsitepackages())\n\
                  u=site.getusersitepackages()\n\
                  p.append(u) if isinstance(u,str) else None\n\
                  print('\\n'.join(p))";
    for py in ["python3", "python"] {
        if let Ok(out) = Command::new(py).arg("-c").arg(script).output()
            && out.status.success()
        {
            return String::from_utf8_lossy(&out.stdout)
                .lines()
                .filter(|l| !l.is_empty())
                .map(PathBuf::from)
                .collect();
        }
    }
    Vec::new()
}

/// The root of a CUDA installation clang can use (`--cuda-path`): `$CUDA_HOME`/`$CUDA_PATH`,
/// or pip's `nvidia/cu13` (`cu12`) whose `include/` holds `cuda_runtime.h`.
fn cuda_root() -> Option<PathBuf> {
    for var in ["CUDA_HOME", "CUDA_PATH"] {
        if let Some(home) = std::env::var_os(var) {
            let p = PathBuf::from(home);
            if p.join("include").join("cuda_runtime.h").is_file() {
                return Some(p);
            }
        }
    }
    python_site_packages().into_iter().find_map(|sp| {
        ["cu13", "cu12"].into_iter().find_map(|cu| {
            let p = sp.join("nvidia").join(cu);
            p.join("include")
                .join("cuda_runtime.h")
                .is_file()
                .then_some(p)
        })
    })
}

/// Headers clang-19's CUDA wrapper includes that CUDA 13 no longer ships (texture fetch
/// functions were removed; curand is a separate package). Empty stand-ins let clang compile
/// code that does not use them.
const CLANG_MISSING_HEADERS: &[&str] = &["texture_fetch_functions.h", "curand_mtgp32_kernel.h"];

/// Arguments that point clang at a CUDA installation, creating stand-ins for the headers it
/// lacks under `scratch`.
fn clang_cuda_args(scratch: &Path) -> Vec<std::ffi::OsString> {
    let mut args = Vec::new();
    let Some(root) = cuda_root() else {
        return args;
    };
    let mut flag = std::ffi::OsString::from("--cuda-path=");
    flag.push(&root);
    args.push(flag);
    args.push("-Wno-unknown-cuda-version".into());
    let missing: Vec<&str> = CLANG_MISSING_HEADERS
        .iter()
        .copied()
        .filter(|h| !root.join("include").join(h).is_file())
        .collect();
    if !missing.is_empty() {
        let shim = scratch.join("clang-shim");
        if std::fs::create_dir_all(&shim).is_ok()
            && missing
                .iter()
                .all(|h| std::fs::write(shim.join(h), b"").is_ok())
        {
            let mut inc = std::ffi::OsString::from("-I");
            inc.push(&shim);
            args.push(inc);
        }
    }
    args
}

/// Finds nvcc, then clang, as documented on the module.
pub fn find_compiler(explicit: Option<&Path>) -> Result<Compiler, CompileError> {
    if let Some(p) = explicit {
        if !p.exists() {
            return Err(CompileError::MissingExplicit(p.to_path_buf()));
        }
        let is_clang = p
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with("clang"));
        return Ok(if is_clang {
            Compiler::Clang(p.to_path_buf())
        } else {
            Compiler::Nvcc(p.to_path_buf())
        });
    }
    for var in ["CUDA_HOME", "CUDA_PATH"] {
        if let Some(home) = std::env::var_os(var) {
            let p = PathBuf::from(home).join("bin").join("nvcc");
            if is_executable(&p) {
                return Ok(Compiler::Nvcc(p));
            }
        }
    }
    if let Some(p) = search_path("nvcc") {
        return Ok(Compiler::Nvcc(p));
    }
    for sp in python_site_packages() {
        for cu in ["cu13", "cu12"] {
            let p = sp.join("nvidia").join(cu).join("bin").join("nvcc");
            if is_executable(&p) {
                return Ok(Compiler::Nvcc(p));
            }
        }
    }
    for name in ["clang", "clang-19", "clang-18", "clang-20"] {
        if let Some(p) = search_path(name) {
            return Ok(Compiler::Clang(p));
        }
    }
    Err(CompileError::NotFound)
}

/// Compiles `input` (a `.cu` file) to PTX text with source-line information.
pub fn compile_to_ptx(input: &Path, opts: &CompileOptions) -> Result<String, CompileError> {
    let compiler = find_compiler(opts.compiler.as_deref())?;
    let out_dir = std::env::temp_dir().join(format!(
        "warpscope-{}-{}",
        std::process::id(),
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0)
    ));
    std::fs::create_dir_all(&out_dir).map_err(|e| CompileError::Output {
        path: out_dir.clone(),
        source: e,
    })?;
    let out = out_dir.join("out.ptx");
    let (exe, mut cmd) = match &compiler {
        Compiler::Nvcc(p) => {
            let mut c = Command::new(p);
            // nvcc needs its own bin directory on PATH for cicc/ptxas when pip-installed.
            if let Some(dir) = p.parent() {
                let mut paths = vec![dir.to_path_buf()];
                if let Some(old) = std::env::var_os("PATH") {
                    paths.extend(std::env::split_paths(&old));
                }
                if let Ok(joined) = std::env::join_paths(paths) {
                    c.env("PATH", joined);
                }
            }
            c.arg("-ptx")
                .arg("-lineinfo")
                .arg(format!("-arch={}", opts.arch));
            (p.clone(), c)
        }
        Compiler::Clang(p) => {
            let mut c = Command::new(p);
            c.arg("--cuda-device-only")
                .arg(format!("--cuda-gpu-arch={}", opts.arch))
                .arg("-S")
                .arg("-O3")
                .arg("-gline-tables-only")
                .args(clang_cuda_args(&out_dir));
            (p.clone(), c)
        }
    };
    cmd.args(&opts.extra_flags).arg(input).arg("-o").arg(&out);
    let output = cmd.output().map_err(|e| CompileError::Spawn {
        compiler: exe.clone(),
        source: e,
    })?;
    if !output.status.success() {
        let _ = std::fs::remove_dir_all(&out_dir);
        return Err(CompileError::Failed {
            compiler: exe,
            input: input.to_path_buf(),
            status: output
                .status
                .code()
                .map_or("killed".to_string(), |c| c.to_string()),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        });
    }
    let text = std::fs::read_to_string(&out).map_err(|e| CompileError::Output {
        path: out.clone(),
        source: e,
    });
    let _ = std::fs::remove_dir_all(&out_dir);
    text
}
