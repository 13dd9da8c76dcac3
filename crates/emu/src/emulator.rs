//! The emulator's front door: an [`Emulator`] owns a module's device memory (buffers,
//! `.global` and `.const` variables) and runs launches of its kernels; [`run_spec`] runs a
//! whole launch spec.

use crate::fault::{Fault, TranslateError};
use crate::launch::{ExecConfig, Launch, Occupancy, occupancy};
use crate::memory::{CONST_WINDOW, GlobalMem};
use crate::observer::{LaunchStats, NoObserver, Observer};
use crate::ordering::{OrderDependence, order_dependence};
use crate::program::Program;
use crate::spec::{Arg, LaunchSpec, SpecError, buffer_bytes};
use crate::translate::{self, ModuleLayout, ProgramSites, TranslateOptions};
use std::collections::HashMap;
use std::fmt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use warpscope_ir::{FuncId, Module};
use warpscope_ptx::StateSpace;

/// Everything that can stop a run.
#[derive(Debug)]
pub enum EmuError {
    /// The spec is wrong.
    Spec(SpecError),
    /// The module could not be loaded (read, compiled, parsed or lowered).
    Load(String),
    /// The kernel uses something the emulator does not support.
    Translate(TranslateError),
    /// The launch is impossible (bad geometry, arguments, resources).
    Launch(String),
    /// The kernel faulted.
    Fault(Fault),
    /// Writing outputs failed.
    Io(String),
}

impl fmt::Display for EmuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EmuError::Spec(e) => write!(f, "{e}"),
            EmuError::Load(m) => write!(f, "{m}"),
            EmuError::Translate(e) => write!(f, "{e}"),
            EmuError::Launch(m) => write!(f, "{m}"),
            EmuError::Fault(e) => write!(f, "{e}"),
            EmuError::Io(m) => write!(f, "{m}"),
        }
    }
}

impl std::error::Error for EmuError {}

impl From<SpecError> for EmuError {
    fn from(e: SpecError) -> Self {
        EmuError::Spec(e)
    }
}

/// A kernel argument.
#[derive(Clone, Debug, PartialEq)]
pub enum KernelArg {
    U32(u32),
    U64(u64),
    F32(f32),
    F64(f64),
    /// Raw bytes of any parameter (structs by value).
    Bytes(Vec<u8>),
}

impl KernelArg {
    pub fn bytes(&self) -> Vec<u8> {
        match self {
            KernelArg::U32(v) => v.to_le_bytes().to_vec(),
            KernelArg::U64(v) => v.to_le_bytes().to_vec(),
            KernelArg::F32(v) => v.to_le_bytes().to_vec(),
            KernelArg::F64(v) => v.to_le_bytes().to_vec(),
            KernelArg::Bytes(b) => b.clone(),
        }
    }
}

/// What one launch did.
#[derive(Clone, Debug)]
pub struct LaunchOutcome {
    pub kernel: String,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub stats: LaunchStats,
    pub occupancy: Occupancy,
    /// Why the kernel's outcome can depend on the order of its SMs (None: it cannot, and
    /// its SMs ran in parallel unless the configuration or the observer said otherwise).
    pub order_dependence: Option<OrderDependence>,
    /// Host time the launch took (not reproducible: keep it out of reproducible outputs).
    pub wall: Duration,
}

/// A module loaded for execution, with its device memory.
pub struct Emulator {
    pub module: Module,
    source: Option<Arc<str>>,
    global: GlobalMem,
    layout: ModuleLayout,
    constb: Vec<u8>,
    programs: HashMap<(FuncId, bool), Arc<(Program, ProgramSites)>>,
    /// [`order_dependence`] of each kernel launched so far.
    orders: HashMap<FuncId, Option<OrderDependence>>,
    config: ExecConfig,
    pool: AtomicI64,
    launches: u32,
    out: Mutex<Vec<u8>>,
    /// Write `printf` output to stdout as well as collecting it.
    pub echo_printf: bool,
}

impl Emulator {
    /// Prepares `module` (whose PTX text is `source`, for messages): allocates and
    /// initialises its `.global` and `.const` variables.
    pub fn new(
        module: Module,
        source: Option<&str>,
        config: ExecConfig,
    ) -> Result<Emulator, EmuError> {
        let mut global = GlobalMem::new();
        let mut layout = ModuleLayout::default();
        let mut constb: Vec<u8> = Vec::new();
        let mut local_top = 0u32;
        let mut inits: Vec<(warpscope_ir::GlobalId, u64)> = Vec::new();
        for (g, v) in module.globals.iter() {
            if v.linkage == Some(warpscope_ptx::Linkage::Extern) && v.size.is_none() {
                continue; // extern declarations (e.g. dynamic shared memory)
            }
            match v.space {
                StateSpace::Global => {
                    let size = v.size.ok_or_else(|| {
                        EmuError::Load(format!("global variable `{}` has no size", v.name))
                    })?;
                    let (_, base) = global.alloc(&v.name, size).ok_or_else(|| {
                        EmuError::Load(format!("cannot allocate global variable `{}`", v.name))
                    })?;
                    layout.global_addr.insert(g, base);
                    inits.push((g, base));
                }
                StateSpace::Const => {
                    let size = v.size.ok_or_else(|| {
                        EmuError::Load(format!("constant `{}` has no size", v.name))
                    })?;
                    let a = u64::from(v.align.max(4));
                    let off = (constb.len() as u64).div_ceil(a) * a;
                    let end = off + size;
                    if end > 64 * 1024 * 1024 {
                        return Err(EmuError::Load("constant memory above 64 MiB".into()));
                    }
                    constb.resize(end as usize, 0);
                    layout.const_off.insert(g, off);
                    inits.push((g, off));
                }
                StateSpace::Local => {
                    let size = v.size.unwrap_or(0) as u32;
                    let a = v.align.max(1);
                    let off = local_top.div_ceil(a) * a;
                    local_top = off + size;
                    layout.local_off.insert(g, off);
                }
                _ => {}
            }
        }
        layout.local_size = local_top;
        // Initial values and relocations.
        for (g, at) in inits {
            let v = &module.globals[g];
            let Some(init) = &v.init else { continue };
            let mut bytes = init.bytes.clone();
            for r in &init.relocs {
                let target = module
                    .globals
                    .iter()
                    .find(|(_, x)| x.name == r.symbol)
                    .map(|(id, _)| id);
                let addr = match target {
                    Some(t) => {
                        if let Some(&a) = layout.global_addr.get(&t) {
                            a
                        } else if let Some(&o) = layout.const_off.get(&t) {
                            if r.generic { CONST_WINDOW + o } else { o }
                        } else {
                            return Err(EmuError::Load(format!(
                                "initializer of `{}` takes the address of `{}`, which has no \
                                 address in global or constant memory",
                                v.name, r.symbol
                            )));
                        }
                    }
                    None => {
                        return Err(EmuError::Load(format!(
                            "initializer of `{}` takes the address of `{}` (function pointers in \
                             initializers are not supported)",
                            v.name, r.symbol
                        )));
                    }
                };
                let val = (addr as i64).wrapping_add(r.addend) as u64;
                let o = r.offset as usize;
                let n = (r.size as usize).min(8);
                if let Some(dst) = bytes.get_mut(o..o + n) {
                    dst.copy_from_slice(&val.to_le_bytes()[..n]);
                }
            }
            match v.space {
                StateSpace::Global => {
                    if let Some(i) = global.find(at) {
                        global.region(i).write_bytes(&bytes);
                    }
                }
                StateSpace::Const => {
                    let o = at as usize;
                    let n = bytes.len().min(constb.len().saturating_sub(o));
                    constb[o..o + n].copy_from_slice(&bytes[..n]);
                }
                _ => {}
            }
        }
        let pool = AtomicI64::new(i64::try_from(config.max_instructions).unwrap_or(i64::MAX));
        Ok(Emulator {
            module,
            source: source.map(Arc::from),
            global,
            layout,
            constb,
            programs: HashMap::new(),
            orders: HashMap::new(),
            config,
            pool,
            launches: 0,
            out: Mutex::new(Vec::new()),
            echo_printf: false,
        })
    }

    /// Parses and lowers PTX text, then prepares it (handy for tests and tools).
    pub fn from_ptx(text: &str, config: ExecConfig) -> Result<Emulator, EmuError> {
        let (ast, errs) = warpscope_ptx::parse(text);
        if let Some(e) = errs.first() {
            return Err(EmuError::Load(format!(
                "PTX syntax error: {} (at byte {})",
                e.message, e.span.start
            )));
        }
        let (module, lerrs) = warpscope_ir::lower_module(ast);
        if let Some(e) = lerrs.first() {
            return Err(EmuError::Load(format!("PTX error: {}", e.message)));
        }
        Emulator::new(module, Some(text), config)
    }

    pub fn config(&self) -> &ExecConfig {
        &self.config
    }

    /// Changes the configuration (the instruction budget restarts from the new limit).
    pub fn set_config(&mut self, config: ExecConfig) {
        self.pool.store(
            i64::try_from(config.max_instructions).unwrap_or(i64::MAX),
            Ordering::Relaxed,
        );
        self.config = config;
    }

    /// Allocates a zeroed device buffer; returns its address.
    pub fn alloc(&mut self, name: &str, bytes: u64) -> Result<u64, EmuError> {
        self.global
            .alloc(name, bytes)
            .map(|(_, a)| a)
            .ok_or_else(|| EmuError::Launch(format!("cannot allocate {bytes} bytes for `{name}`")))
    }

    /// Writes bytes at a device address (the start of an allocation or inside one).
    pub fn write(&self, addr: u64, data: &[u8]) -> Result<(), EmuError> {
        let i = self
            .global
            .find(addr)
            .ok_or_else(|| EmuError::Launch(format!("{addr:#x} is not allocated")))?;
        let r = self.global.region(i);
        if addr != r.base {
            // Rare: write around the offset.
            let mut all = r.to_bytes();
            let o = (addr - r.base) as usize;
            let n = data.len().min(all.len().saturating_sub(o));
            all[o..o + n].copy_from_slice(&data[..n]);
            r.write_bytes(&all);
        } else {
            r.write_bytes(&data[..data.len().min(r.size as usize)]);
        }
        Ok(())
    }

    /// Reads `len` bytes at a device address.
    pub fn read(&self, addr: u64, len: u64) -> Result<Vec<u8>, EmuError> {
        let i = self
            .global
            .find(addr)
            .ok_or_else(|| EmuError::Launch(format!("{addr:#x} is not allocated")))?;
        let r = self.global.region(i);
        let all = r.to_bytes();
        let o = (addr - r.base) as usize;
        let end = o.saturating_add(len as usize).min(all.len());
        Ok(all[o..end].to_vec())
    }

    /// Collected `printf` output so far.
    pub fn printf_output(&self) -> Vec<u8> {
        self.out.lock().map(|o| o.clone()).unwrap_or_default()
    }

    /// Finds a kernel by mangled name, qualified name or base name.
    pub fn find_kernel(&self, wanted: &str) -> Result<FuncId, String> {
        let hits: Vec<(FuncId, &str)> = self
            .module
            .kernels()
            .filter(|(_, f)| warpscope_ir::names::matches(wanted, &f.name))
            .map(|(id, f)| (id, f.name.as_str()))
            .collect();
        match hits.as_slice() {
            [(id, _)] => Ok(*id),
            [] => {
                let names: Vec<String> = self
                    .module
                    .kernels()
                    .map(
                        |(_, f)| match warpscope_ir::names::qualified_name(&f.name) {
                            Some(q) => format!("{q} ({})", f.name),
                            None => f.name.clone(),
                        },
                    )
                    .collect();
                Err(format!(
                    "no kernel named `{wanted}`; the module has: {}",
                    if names.is_empty() {
                        "no kernels".to_string()
                    } else {
                        names.join(", ")
                    }
                ))
            }
            many => {
                // An exact mangled match wins.
                if let Some((id, _)) = many.iter().find(|(_, n)| *n == wanted) {
                    return Ok(*id);
                }
                Err(format!(
                    "`{wanted}` is ambiguous; write the mangled name, one of: {}",
                    many.iter().map(|(_, n)| *n).collect::<Vec<_>>().join(", ")
                ))
            }
        }
    }

    /// The translated program of a kernel (cached).
    pub fn program(
        &mut self,
        kernel: FuncId,
        markers: bool,
    ) -> Result<Arc<(Program, ProgramSites)>, TranslateError> {
        if let Some(p) = self.programs.get(&(kernel, markers)) {
            return Ok(p.clone());
        }
        let opts = TranslateOptions {
            block_markers: markers,
            source: self.source.clone(),
        };
        let p = Arc::new(translate::translate(
            &self.module,
            kernel,
            &self.layout,
            &opts,
        )?);
        self.programs.insert((kernel, markers), p.clone());
        Ok(p)
    }

    /// Launches `kernel` with an observer.
    pub fn launch_with<O: Observer>(
        &mut self,
        kernel: FuncId,
        grid: [u32; 3],
        block: [u32; 3],
        dyn_smem: u32,
        args: &[KernelArg],
        obs: &mut O,
    ) -> Result<LaunchOutcome, EmuError> {
        let p = self
            .program(kernel, O::BLOCKS)
            .map_err(EmuError::Translate)?;
        let (prog, sites) = (&p.0, &p.1);
        let f = &self.module.funcs[kernel];
        if args.len() != f.params.len() {
            return Err(EmuError::Launch(format!(
                "kernel `{}` takes {} parameters; {} arguments given",
                f.name,
                f.params.len(),
                args.len()
            )));
        }
        let mut params = vec![0u8; prog.param_size as usize];
        for (i, (a, &(off, size))) in args.iter().zip(&prog.params).enumerate() {
            let b = a.bytes();
            if b.len() != size as usize {
                return Err(EmuError::Launch(format!(
                    "argument {i} of `{}` is {} bytes; the parameter `{}` is {size} bytes",
                    f.name,
                    b.len(),
                    f.params[i].name
                )));
            }
            params[off as usize..(off + size) as usize].copy_from_slice(&b);
        }
        if grid.contains(&0) || block.contains(&0) {
            return Err(EmuError::Launch(
                "grid and block extents must be positive".into(),
            ));
        }
        if let Some(r) = prog.reqntid
            && r != block
        {
            return Err(EmuError::Launch(format!(
                "kernel `{}` requires blocks of {r:?} (.reqntid); launched with {block:?}",
                f.name
            )));
        }
        let occ = occupancy(prog, block, dyn_smem, &self.config).map_err(EmuError::Launch)?;
        let order = self
            .orders
            .entry(kernel)
            .or_insert_with(|| order_dependence(&self.module, prog))
            .clone();
        let launch = Launch {
            prog,
            sites,
            global: &self.global,
            constb: &self.constb,
            params: &params,
            grid,
            block,
            dyn_smem,
            index: self.launches,
            occupancy: occ,
            pool: &self.pool,
            limit: self.config.max_instructions,
            out: &self.out,
            order_dependence: order.as_ref(),
        };
        self.launches += 1;
        let t0 = Instant::now();
        let printed_before = self.out.lock().map(|o| o.len()).unwrap_or(0);
        let r = launch.run(&self.config, obs);
        let wall = t0.elapsed();
        if self.echo_printf
            && let Ok(o) = self.out.lock()
            && o.len() > printed_before
        {
            use std::io::Write;
            let _ = std::io::stdout().write_all(&o[printed_before..]);
        }
        let stats = r.map_err(|mut f| {
            if let Some(s) = &mut f.site {
                if let Some((file, _)) = s.loc {
                    s.src_file = self.module.file_name(file).map(str::to_string);
                }
                if let Some((file, _)) = s.inlined_at {
                    s.inlined_file = self.module.file_name(file).map(str::to_string);
                }
            }
            EmuError::Fault(f)
        })?;
        Ok(LaunchOutcome {
            kernel: f.name.clone(),
            grid,
            block,
            stats,
            occupancy: occ,
            order_dependence: order,
            wall,
        })
    }

    /// Launches `kernel` without an observer.
    pub fn launch(
        &mut self,
        kernel: FuncId,
        grid: [u32; 3],
        block: [u32; 3],
        dyn_smem: u32,
        args: &[KernelArg],
    ) -> Result<LaunchOutcome, EmuError> {
        self.launch_with(kernel, grid, block, dyn_smem, args, &mut NoObserver)
    }
}

/// Options of [`run_spec`].
#[derive(Clone, Debug, Default)]
pub struct RunOptions {
    pub exec: ExecConfig,
    /// Write saved buffers here instead of next to the spec.
    pub save_dir: Option<PathBuf>,
    pub compile: warpscope_frontend::CompileOptions,
    /// Print `printf` output as it is produced.
    pub echo_printf: bool,
}

/// What a spec run did.
#[derive(Debug)]
pub struct RunReport {
    pub launches: Vec<LaunchOutcome>,
    /// Files written.
    pub saved: Vec<PathBuf>,
    /// Final contents of every buffer, by name.
    pub buffers: Vec<(String, Vec<u8>)>,
    pub printf: Vec<u8>,
    pub total: LaunchStats,
    pub wall: Duration,
}

/// Loads the module of `spec`.
pub fn load_spec_module(
    spec: &LaunchSpec,
    compile: &warpscope_frontend::CompileOptions,
) -> Result<warpscope_frontend::LoadedModule, EmuError> {
    warpscope_frontend::load_module(&spec.module, compile).map_err(|e| {
        EmuError::Load(format!(
            "{}:{}: `module`: {e}",
            spec.path.display(),
            spec.module_line
        ))
    })
}

/// Runs a launch spec: loads its module, creates and fills its buffers, runs its launches
/// in order (repeats included) and writes the saved buffers.
pub fn run_spec<O: Observer>(
    spec: &LaunchSpec,
    opts: &RunOptions,
    obs: &mut O,
) -> Result<RunReport, EmuError> {
    let loaded = load_spec_module(spec, &opts.compile)?;
    run_spec_module(spec, loaded.module, Some(&loaded.source.text), opts, obs)
}

/// Like [`run_spec`] with an already loaded module.
pub fn run_spec_module<O: Observer>(
    spec: &LaunchSpec,
    module: Module,
    source: Option<&str>,
    opts: &RunOptions,
    obs: &mut O,
) -> Result<RunReport, EmuError> {
    let t0 = Instant::now();
    let mut run = SpecRun::new(spec, module, source, opts)?;
    let mut outcomes = Vec::new();
    for (li, t) in run.schedule() {
        outcomes.push(run.launch(li, t, obs)?);
    }
    let mut report = run.finish()?;
    report.total = outcomes.iter().fold(LaunchStats::default(), |mut a, o| {
        a.add(&o.stats);
        a
    });
    report.launches = outcomes;
    report.wall = t0.elapsed();
    Ok(report)
}

/// A launch spec being run: its module prepared and its buffers created and filled, ready to
/// run its launches one at a time (for tools that want control between launches, and
/// benchmarks that repeat one launch).
pub struct SpecRun<'s> {
    spec: &'s LaunchSpec,
    emu: Emulator,
    /// Address and size of each buffer.
    addrs: HashMap<String, (u64, u64)>,
    save_dir: Option<PathBuf>,
}

impl<'s> SpecRun<'s> {
    /// Prepares `module` and creates the buffers of `spec`.
    pub fn new(
        spec: &'s LaunchSpec,
        module: Module,
        source: Option<&str>,
        opts: &RunOptions,
    ) -> Result<SpecRun<'s>, EmuError> {
        let mut emu = Emulator::new(module, source, opts.exec.clone())?;
        emu.echo_printf = opts.echo_printf;
        let mut addrs = HashMap::new();
        for b in &spec.buffers {
            let bytes = buffer_bytes(b)
                .map_err(|m| SpecRun::err(spec, b.line, format!("buffer.{}.init", b.name), m))?;
            let a = emu.alloc(&b.name, b.bytes())?;
            emu.write(a, &bytes)?;
            addrs.insert(b.name.clone(), (a, b.bytes()));
        }
        Ok(SpecRun {
            spec,
            emu,
            addrs,
            save_dir: opts.save_dir.clone(),
        })
    }

    fn err(spec: &LaunchSpec, line: u32, key: String, message: String) -> EmuError {
        EmuError::Spec(SpecError {
            file: spec.path.clone(),
            line: Some(line),
            key,
            message,
        })
    }

    /// The emulator (to change its configuration or read memory).
    pub fn emulator(&mut self) -> &mut Emulator {
        &mut self.emu
    }

    /// Device address and size of a buffer.
    pub fn buffer(&self, name: &str) -> Option<(u64, u64)> {
        self.addrs.get(name).copied()
    }

    /// Every launch to run, in order: (index of the `[[launch]]`, repeat value).
    pub fn schedule(&self) -> Vec<(usize, Option<i64>)> {
        let mut v = Vec::new();
        for (li, l) in self.spec.launches.iter().enumerate() {
            match &l.repeat {
                None => v.push((li, None)),
                Some(r) => {
                    for t in (r.from..=r.to).step_by(r.step as usize) {
                        v.push((li, Some(t)));
                    }
                }
            }
        }
        v
    }

    /// Runs `[[launch]]` number `li` (with repeat value `t`).
    pub fn launch<O: Observer>(
        &mut self,
        li: usize,
        t: Option<i64>,
        obs: &mut O,
    ) -> Result<LaunchOutcome, EmuError> {
        let spec = self.spec;
        let l = spec
            .launches
            .get(li)
            .ok_or_else(|| EmuError::Launch(format!("the spec has no launch {li}")))?;
        let kernel = self
            .emu
            .find_kernel(&l.kernel)
            .map_err(|m| SpecRun::err(spec, l.line, format!("launch[{li}].kernel"), m))?;
        let params: Vec<(String, u64)> = self.emu.module.funcs[kernel]
            .params
            .iter()
            .map(|p| (p.name.clone(), p.size))
            .collect();
        if params.len() != l.args.len() {
            return Err(SpecRun::err(
                spec,
                l.line,
                format!("launch[{li}].args"),
                format!(
                    "kernel `{}` takes {} parameters; {} arguments given",
                    l.kernel,
                    params.len(),
                    l.args.len()
                ),
            ));
        }
        let mut args = Vec::new();
        for (ai, (a, (pname, psize))) in l.args.iter().zip(&params).enumerate() {
            let line = l.arg_lines.get(ai).copied().unwrap_or(l.line);
            let key = format!("launch[{li}].args[{ai}]");
            let bytes: Vec<u8> = match a {
                Arg::Buffer { name, offset } => {
                    let (base, _) = self.addrs[name.as_str()];
                    (base + offset).to_le_bytes().to_vec()
                }
                Arg::Scalar { ty, bits } => bits.to_le_bytes()[..ty.size() as usize].to_vec(),
                Arg::Var { .. } => {
                    let v = t.unwrap_or(0);
                    match psize {
                        4 => (v as i32).to_le_bytes().to_vec(),
                        8 => v.to_le_bytes().to_vec(),
                        2 => (v as i16).to_le_bytes().to_vec(),
                        1 => vec![v as u8],
                        _ => {
                            return Err(SpecRun::err(
                                spec,
                                line,
                                key,
                                format!(
                                    "parameter `{pname}` is {psize} bytes; a repeat variable \
                                     fills 1, 2, 4 or 8"
                                ),
                            ));
                        }
                    }
                }
            };
            if bytes.len() as u64 != *psize {
                let what = match a {
                    Arg::Buffer { .. } => "a buffer address (8 bytes)".to_string(),
                    Arg::Scalar { ty, .. } => format!("{} ({} bytes)", ty.name(), ty.size()),
                    Arg::Var { .. } => "the repeat variable".into(),
                };
                return Err(SpecRun::err(
                    spec,
                    line,
                    key,
                    format!(
                        "is {what}, but parameter {ai} (`{pname}`) of `{}` is {psize} bytes",
                        l.kernel
                    ),
                ));
            }
            args.push(KernelArg::Bytes(bytes));
        }
        self.emu
            .launch_with(kernel, l.grid, l.block, l.shared_bytes, &args, obs)
    }

    /// Reads every buffer, writes the saved ones, and reports.
    pub fn finish(self) -> Result<RunReport, EmuError> {
        let mut saved = Vec::new();
        let mut buffers = Vec::new();
        for b in &self.spec.buffers {
            let (a, n) = self.addrs[b.name.as_str()];
            let bytes = self.emu.read(a, n)?;
            if let Some(s) = &b.save {
                let path = match &self.save_dir {
                    Some(d) => d.join(s),
                    None => self.spec.dir().join(s),
                };
                if let Some(parent) = path.parent() {
                    std::fs::create_dir_all(parent).map_err(|e| {
                        EmuError::Io(format!("cannot create {}: {e}", parent.display()))
                    })?;
                }
                std::fs::write(&path, &bytes)
                    .map_err(|e| EmuError::Io(format!("cannot write {}: {e}", path.display())))?;
                saved.push(path);
            }
            buffers.push((b.name.clone(), bytes));
        }
        Ok(RunReport {
            launches: Vec::new(),
            saved,
            buffers,
            printf: self.emu.printf_output(),
            total: LaunchStats::default(),
            wall: Duration::ZERO,
        })
    }
}
