//! Running ptxas on a module and reading the cubin it writes ([`crate::cubin`]); nvdisasm, when
//! given, for [`compile_with_nvdisasm`], the cross-check the reader was verified against, and
//! for the operands [`compile_verbose`] adds to the reader's listing.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

use crate::cubin::CubinError;
use crate::listing::{Listing, parse};

/// The programs, found by the caller (`warpscope_frontend::toolchain::find_cuda_tool`).
#[derive(Debug, Clone)]
pub struct Toolchain {
    pub ptxas: PathBuf,
    /// nvdisasm, for [`compile_with_nvdisasm`] and the operands [`compile_verbose`] adds:
    /// [`compile`] does not run it. Empty when the toolchain was made by
    /// [`Toolchain::ptxas_only`].
    pub nvdisasm: PathBuf,
    /// Longest either may run before it is stopped.
    pub time_limit: Duration,
}

/// Why no listing came back.
#[derive(Debug, thiserror::Error)]
pub enum SassError {
    #[error("cannot run {tool}: {source}")]
    Spawn {
        tool: String,
        source: std::io::Error,
    },
    #[error("{tool} failed: {message}")]
    Failed { tool: String, message: String },
    #[error("{tool} ran past {secs} s and was stopped")]
    Timeout { tool: String, secs: u64 },
    #[error("cannot write the module for ptxas or read its cubin: {0}")]
    Io(#[from] std::io::Error),
    #[error(transparent)]
    Cubin(#[from] CubinError),
}

impl Toolchain {
    /// ptxas and nvdisasm (nvdisasm only serves [`compile_with_nvdisasm`]).
    pub fn new(ptxas: PathBuf, nvdisasm: PathBuf) -> Toolchain {
        Toolchain {
            ptxas,
            nvdisasm,
            time_limit: Duration::from_secs(60),
        }
    }

    /// ptxas alone: all [`compile`] needs.
    pub fn ptxas_only(ptxas: PathBuf) -> Toolchain {
        Toolchain::new(ptxas, PathBuf::new())
    }

    /// ptxas's version (`V13.0.88`), or `None` when it does not say.
    /// Asked of each ptxas once per process (cached by path).
    pub fn ptxas_version(&self) -> Option<String> {
        static SEEN: std::sync::Mutex<Vec<(PathBuf, Option<String>)>> =
            std::sync::Mutex::new(Vec::new());
        if let Ok(seen) = SEEN.lock()
            && let Some((_, v)) = seen.iter().find(|(p, _)| *p == self.ptxas)
        {
            return v.clone();
        }
        let v = self.ask_ptxas_version();
        if let Ok(mut seen) = SEEN.lock() {
            seen.push((self.ptxas.clone(), v.clone()));
        }
        v
    }

    fn ask_ptxas_version(&self) -> Option<String> {
        let out = Command::new(&self.ptxas).arg("--version").output().ok()?;
        let text = String::from_utf8_lossy(&out.stdout);
        text.split_whitespace()
            .rev()
            .find(|w| w.starts_with('V') && w[1..].starts_with(|c: char| c.is_ascii_digit()))
            .map(str::to_string)
    }
}

/// Compiles `ptx` for `arch` (`sm_90`) with ptxas (`-O3`, line information, as nvcc builds a
/// program) and reads the functions, instructions and CUDA lines back from the cubin
/// ([`crate::cubin::read`]: the listing `nvdisasm -g -c` gives, without starting nvdisasm).
/// Works in a fresh directory under the system's temporary directory, removed afterwards.
pub fn compile(tools: &Toolchain, ptx: &str, arch: &str) -> Result<Listing, SassError> {
    read_compiled(tools, ptx, arch, false).map(|(listing, _)| listing)
}

/// As [`compile`], with ptxas's `-v` report of the same compile (`Used N registers`, `N bytes
/// stack frame` per function; what ptxas writes to its standard error) beside the listing, so
/// that a caller needing both runs ptxas once. When the toolchain names nvdisasm, each
/// instruction also gets nvdisasm's full opcode and its operands (`nvdisasm -c -ndf` on the
/// same cubin, matched by offset: [`with_operands`]), which the cubin reader does not decode; when
/// nvdisasm fails, the listing is the cubin reader's alone.
pub fn compile_verbose(
    tools: &Toolchain,
    ptx: &str,
    arch: &str,
) -> Result<(Listing, String), SassError> {
    read_compiled(tools, ptx, arch, true)
}

/// [`compile`] and [`compile_verbose`]: ptxas (with `-v` when `verbose`), then the cubin read
/// back, with what ptxas wrote to its standard error (and, when `verbose` and nvdisasm is
/// given, the operands nvdisasm prints).
fn read_compiled(
    tools: &Toolchain,
    ptx: &str,
    arch: &str,
    verbose: bool,
) -> Result<(Listing, String), SassError> {
    in_temp_dir(|dir| {
        let (cubin, info) = build(tools, ptx, arch, dir, verbose)?;
        let bytes = std::fs::read(&cubin)?;
        let mut listing = crate::cubin::read(&bytes)?;
        if verbose && !tools.nvdisasm.as_os_str().is_empty() {
            let mut dis = Command::new(&tools.nvdisasm);
            // no dataflow analysis: the listing is the same, about a quarter faster
            dis.arg("-c").arg("-ndf").arg(&cubin);
            if let Ok(text) = run(&mut dis, "nvdisasm", tools.time_limit) {
                with_operands(&mut listing, &parse(&text));
            }
        }
        Ok((listing, info))
    })
}

/// Gives each instruction of `listing` (the cubin reader's) the full opcode and the operands
/// of the instruction of `printed` (nvdisasm's listing of the same cubin) at the same offset
/// of the same function, when both name the same base mnemonic; branches keep the reader's
/// (decoded, with targets as offsets).
pub fn with_operands(listing: &mut Listing, printed: &Listing) {
    for f in &mut listing.functions {
        let Some(g) = printed.functions.iter().find(|g| g.name == f.name) else {
            continue;
        };
        for i in &mut f.instructions {
            if !i.operands.is_empty() {
                continue;
            }
            let Ok(k) = g.instructions.binary_search_by_key(&i.offset, |x| x.offset) else {
                continue;
            };
            let p = &g.instructions[k];
            if p.base_opcode() == i.base_opcode() {
                i.opcode = p.opcode.clone();
                i.operands = p.operands.clone();
            }
        }
    }
}

/// As [`compile`], but disassembling with nvdisasm (`-g -c`) and reading its listing
/// ([`parse`]): the way the table was read before the cubin reader, kept as its cross-check.
pub fn compile_with_nvdisasm(
    tools: &Toolchain,
    ptx: &str,
    arch: &str,
) -> Result<Listing, SassError> {
    in_temp_dir(|dir| {
        let (cubin, _) = build(tools, ptx, arch, dir, false)?;
        let mut dis = Command::new(&tools.nvdisasm);
        dis.arg("-g").arg("-c").arg(&cubin);
        let text = run(&mut dis, "nvdisasm", tools.time_limit)?;
        Ok(parse(&text))
    })
}

fn in_temp_dir<T>(f: impl FnOnce(&Path) -> Result<T, SassError>) -> Result<T, SassError> {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "warpscope-sass-{}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir)?;
    let result = f(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

/// Runs ptxas on `ptx` (with `-v` when `verbose`), returning the cubin's path and what ptxas
/// wrote to its standard error.
fn build(
    tools: &Toolchain,
    ptx: &str,
    arch: &str,
    dir: &Path,
    verbose: bool,
) -> Result<(PathBuf, String), SassError> {
    let input = dir.join("module.ptx");
    let cubin = dir.join("module.cubin");
    std::fs::write(&input, ptx)?;
    let mut ptxas = Command::new(&tools.ptxas);
    ptxas
        .arg(format!("-arch={arch}"))
        .arg("-O3")
        .arg("-lineinfo")
        .arg("-o")
        .arg(&cubin)
        .arg(&input);
    if verbose {
        ptxas.arg("-v");
    }
    let info = match run_both(&mut ptxas, "ptxas", tools.time_limit) {
        // A module that calls device functions defined in another (built with `-rdc`): compile
        // it as a relocatable object, which the cubin reader reads the same way.
        Err(SassError::Failed { message, .. })
            if message.contains("Unresolved extern function") =>
        {
            ptxas.arg("-c");
            run_both(&mut ptxas, "ptxas", tools.time_limit)?.1
        }
        r => r?.1,
    };
    Ok((cubin, info))
}

/// Runs `cmd` to completion within `limit`, returning its standard output.
fn run(cmd: &mut Command, tool: &str, limit: Duration) -> Result<String, SassError> {
    run_both(cmd, tool, limit).map(|(out, _)| out)
}

/// Runs `cmd` to completion within `limit`, returning its standard output and error.
fn run_both(cmd: &mut Command, tool: &str, limit: Duration) -> Result<(String, String), SassError> {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|source| SassError::Spawn {
            tool: tool.to_string(),
            source,
        })?;
    // Drain both pipes on threads so a large listing cannot block the child.
    let mut out = child.stdout.take();
    let mut err = child.stderr.take();
    let t_out = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(o) = out.as_mut() {
            let _ = std::io::Read::read_to_string(o, &mut s);
        }
        s
    });
    let t_err = std::thread::spawn(move || {
        let mut s = String::new();
        if let Some(o) = err.as_mut() {
            let _ = std::io::Read::read_to_string(o, &mut s);
        }
        s
    });
    let start = Instant::now();
    let status = loop {
        match child.try_wait()? {
            Some(s) => break s,
            None if start.elapsed() > limit => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(SassError::Timeout {
                    tool: tool.to_string(),
                    secs: limit.as_secs(),
                });
            }
            None => std::thread::sleep(Duration::from_millis(5)),
        }
    };
    let stdout = t_out.join().unwrap_or_default();
    let stderr = t_err.join().unwrap_or_default();
    if !status.success() {
        let message = stderr
            .lines()
            .filter(|l| !l.trim().is_empty())
            .take(3)
            .collect::<Vec<_>>()
            .join("; ");
        return Err(SassError::Failed {
            tool: tool.to_string(),
            message: if message.is_empty() {
                status.to_string()
            } else {
                message
            },
        });
    }
    Ok((stdout, stderr))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nvdisasm_gives_the_readers_instructions_their_operands() {
        let printed = parse(
            ".text.k:\n\
             /*0000*/   IMAD.HI.U32 R4, R3, UR6, RZ ;\n\
             /*0010*/   LOP3.LUT R3, R4, R3, RZ, 0x3c, !PT ;\n\
             /*0020*/   @P1 BRA `(.L_x_1) ;\n",
        );
        let mut listing = Listing {
            files: Vec::new(),
            functions: vec![crate::listing::SassFunction {
                name: "k".into(),
                instructions: [(0, "IMAD.HI"), (0x10, "FADD"), (0x20, "BRA")]
                    .iter()
                    .map(|&(offset, op)| crate::listing::SassInst {
                        offset,
                        guard: None,
                        opcode: op.into(),
                        operands: if op == "BRA" {
                            "0x0".into()
                        } else {
                            String::new()
                        },
                        source: None,
                    })
                    .collect(),
            }],
        };
        with_operands(&mut listing, &printed);
        let i = &listing.functions[0].instructions;
        assert_eq!(i[0].opcode, "IMAD.HI.U32");
        assert_eq!(i[0].operands, "R4, R3, UR6, RZ");
        // another mnemonic at the offset: left as the reader had it
        assert_eq!((i[1].opcode.as_str(), i[1].operands.as_str()), ("FADD", ""));
        // branches keep the reader's decoded target
        assert_eq!(i[2].operands, "0x0");
    }
}
