//! Loading the input module with the options every subcommand shares.

use clap::Args;
use std::path::{Path, PathBuf};
use warpscope_frontend::{CompileOptions, LoadedModule, ModuleError, load_module};

/// How to compile a `.cu` input.
#[derive(Args, Debug, Clone, Default)]
pub struct CompileArgs {
    /// nvcc (or clang) to compile .cu inputs with; default: $CUDA_HOME/bin, PATH, then pip's
    /// nvidia-cuda-nvcc.
    #[arg(long, value_name = "PATH", global = true)]
    pub nvcc: Option<PathBuf>,
    /// GPU architecture to compile .cu inputs for.
    #[arg(long, default_value = "sm_90", global = true)]
    pub arch: String,
    /// Extra flag for the CUDA compiler (repeatable), e.g. -Xcc=-DN=1024.
    #[arg(
        long = "Xcc",
        value_name = "FLAG",
        global = true,
        allow_hyphen_values = true
    )]
    pub extra: Vec<String>,
}

impl CompileArgs {
    pub fn options(&self) -> CompileOptions {
        CompileOptions {
            compiler: self.nvcc.clone(),
            arch: if self.arch.is_empty() {
                "sm_90".into()
            } else {
                self.arch.clone()
            },
            extra_flags: self.extra.iter().map(Into::into).collect(),
        }
    }
}

/// Loads `path`, printing any error to stderr.
pub fn load_or_report(path: &Path, compile: &CompileArgs) -> Option<LoadedModule> {
    match load_module(path, &compile.options()) {
        Ok(m) => Some(m),
        Err(ModuleError::Invalid {
            file,
            count,
            rendered,
        }) => {
            eprint!("{rendered}");
            eprintln!("error: could not load {file}: {count} error(s)");
            None
        }
        Err(e) => {
            eprintln!("error: {e}");
            None
        }
    }
}
