//! Loading warpscope's inputs: PTX text from a `.ptx` file or from a `.cu` file compiled by
//! nvcc (or clang), and the CUDA sources behind it.

pub mod launch_sites;
pub mod module;
pub mod source_map;
pub mod toolchain;

pub use launch_sites::{IncludeResolver, LaunchArg, LaunchSite, launch_sites, launch_sites_with};
pub use module::{LoadedModule, ModuleError, load_module, lower_source, render_errors};

pub use source_map::{SourceFile, SourceMap};
pub use toolchain::{CompileError, CompileOptions, Compiler, compile_to_ptx, find_compiler};

use std::path::{Path, PathBuf};

/// What kind of file an input path is, judged by its extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputKind {
    /// PTX assembly.
    Ptx,
    /// CUDA C++ source, compiled to PTX first.
    Cuda,
}

impl InputKind {
    /// Classifies `path`: `.cu`/`.cuh` are CUDA, everything else is read as PTX.
    pub fn of(path: &Path) -> InputKind {
        match path.extension().and_then(|e| e.to_str()) {
            Some("cu") | Some("cuh") => InputKind::Cuda,
            _ => InputKind::Ptx,
        }
    }
}

/// PTX text ready to parse, with where it came from.
#[derive(Debug, Clone)]
pub struct PtxSource {
    /// The file the user named.
    pub input: PathBuf,
    /// Name to show in PTX diagnostics (the `.ptx` path, or `<input>.ptx` when compiled).
    pub display_name: String,
    /// The PTX text.
    pub text: String,
    /// How it was obtained.
    pub kind: InputKind,
}

/// Why an input could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    #[error("cannot read {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Compile(#[from] CompileError),
}

/// Reads `path` as PTX, or compiles it first when it is CUDA source.
pub fn load_ptx(path: &Path, opts: &CompileOptions) -> Result<PtxSource, LoadError> {
    let kind = InputKind::of(path);
    match kind {
        InputKind::Ptx => {
            let bytes = std::fs::read(path).map_err(|e| LoadError::Read {
                path: path.to_path_buf(),
                source: e,
            })?;
            Ok(PtxSource {
                input: path.to_path_buf(),
                display_name: path.display().to_string(),
                text: String::from_utf8_lossy(&bytes).into_owned(),
                kind,
            })
        }
        InputKind::Cuda => {
            if !path.is_file() {
                return Err(LoadError::Read {
                    path: path.to_path_buf(),
                    source: std::io::Error::new(std::io::ErrorKind::NotFound, "no such file"),
                });
            }
            let text = compile_to_ptx(path, opts)?;
            Ok(PtxSource {
                input: path.to_path_buf(),
                display_name: format!("{}.ptx", path.display()),
                text,
                kind,
            })
        }
    }
}
