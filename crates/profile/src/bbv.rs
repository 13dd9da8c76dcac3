//! Basic-block vectors (paper 002): for every thread of every launch, how many times it
//! executed each basic block of the kernel and of the device functions it calls.
//!
//! [`BasicBlockVectors`] observes block entries (the emulator reports each entry of a warp
//! into a block with its active lanes) and keeps one counter per (thread, block) for the
//! blocks (CTAs) resident on its SM; finished launches become [`LaunchBbv`]s.
//!
//! ## Binary layout (`warpscope profile --bbv FILE`)
//!
//! All integers are unsigned LEB128 varints unless stated; strings are a varint byte length
//! followed by UTF-8.
//!
//! ```text
//! file      := magic "WSBBV\0" (6 bytes) · version u16 LE (= 1)
//!              · nfuncs · nfuncs × string            -- function table (PTX names)
//!              · nlaunches · nlaunches × launch
//! launch    := index · kernel (function-table index)
//!              · grid.x grid.y grid.z · block.x block.y block.z
//!              · ncols · ncols × (function · block · instructions in the block)
//!              · nvectors · nvectors × (ncols × count)  -- the distinct vectors
//!              · nthreads · nthreads × vector-id        -- thread t's vector
//! ```
//!
//! Threads are numbered `cta_linear × threads_per_block + thread_linear` (x fastest at both
//! levels), so `nthreads = grid.x·grid.y·grid.z × block.x·block.y·block.z`. Storing the
//! distinct vectors once keeps files small: threads of a uniform kernel all share one vector.
//! [`BbvFile::read`] reads it back.

use cranelift_entity::EntityRef;
use serde::Serialize;
use std::collections::HashMap;
use std::io;
use std::sync::Arc;
use warpscope_emu::{LaunchInfo, LaunchStats, Observer, WarpInfo};
use warpscope_ir::{Block, CallGraph, FuncId, Module};

use crate::observe::LaunchWindow;
use crate::varint::{self, Cursor};

const NO_COL: u32 = u32::MAX;

/// The basic blocks counted for one kernel: its own and those of every function it may call.
#[derive(Clone, Debug, Default)]
pub struct KernelColumns {
    /// First column of each function (indexed by function), `u32::MAX` when not counted.
    col_base: Vec<u32>,
    /// (function, block, instructions) of each column.
    pub columns: Vec<(FuncId, Block, u32)>,
}

/// The columns of every kernel of a module.
#[derive(Clone, Debug, Default)]
pub struct BlockColumns {
    kernels: HashMap<FuncId, Arc<KernelColumns>>,
}

impl BlockColumns {
    pub fn new(module: &Module) -> BlockColumns {
        let cg = CallGraph::with_module(module);
        let mut kernels = HashMap::new();
        for (k, _) in module.kernels() {
            let mut kc = KernelColumns {
                col_base: vec![NO_COL; module.funcs.len()],
                columns: Vec::new(),
            };
            for f in crate::observe::reachable(module, &cg, k) {
                let func = &module.funcs[f];
                kc.col_base[f.index()] = kc.columns.len() as u32;
                for (b, data) in func.blocks.iter() {
                    kc.columns.push((f, b, data.insts.len() as u32));
                }
            }
            kernels.insert(k, Arc::new(kc));
        }
        BlockColumns { kernels }
    }

    pub fn kernel(&self, k: FuncId) -> Option<&Arc<KernelColumns>> {
        self.kernels.get(&k)
    }
}

/// Basic-block vectors of one launch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaunchBbv {
    pub launch: u32,
    pub kernel: FuncId,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    /// (function, block, instructions in the block) of each column.
    pub columns: Vec<(FuncId, Block, u32)>,
    /// `threads × columns` counts, thread-major.
    pub counts: Vec<u32>,
}

impl LaunchBbv {
    pub fn threads(&self) -> usize {
        let g: u64 = self.grid.iter().map(|&x| u64::from(x)).product();
        let b: u64 = self.block.iter().map(|&x| u64::from(x)).product();
        (g * b) as usize
    }

    /// The vector of thread `t`.
    pub fn thread(&self, t: usize) -> &[u32] {
        let n = self.columns.len();
        &self.counts[t * n..(t + 1) * n]
    }
}

struct CtaCounts {
    linear: u32,
    counts: Vec<u32>,
}

/// Observer recording per-thread basic-block execution counts.
pub struct BasicBlockVectors {
    columns: Arc<BlockColumns>,
    window: LaunchWindow,
    on: bool,
    cur: Option<Arc<KernelColumns>>,
    tpb: u32,
    info: Option<LaunchInfo>,
    ctas: Vec<CtaCounts>,
    /// Indices into `ctas` of the blocks still running.
    open: Vec<usize>,
    last: usize,
    /// Block entries of functions outside the kernel's columns (should stay 0).
    pub unmapped: u64,
    pub launches: Vec<LaunchBbv>,
}

impl BasicBlockVectors {
    pub fn new(columns: Arc<BlockColumns>, window: LaunchWindow) -> BasicBlockVectors {
        BasicBlockVectors {
            columns,
            window,
            on: false,
            cur: None,
            tpb: 0,
            info: None,
            ctas: Vec::new(),
            open: Vec::new(),
            last: 0,
            unmapped: 0,
            launches: Vec::new(),
        }
    }

    pub fn for_module(module: &Module) -> BasicBlockVectors {
        BasicBlockVectors::new(Arc::new(BlockColumns::new(module)), LaunchWindow::ALL)
    }

    #[inline]
    fn cta_slot(&mut self, linear: u32) -> Option<usize> {
        if let Some(c) = self.ctas.get(self.last)
            && c.linear == linear
        {
            return Some(self.last);
        }
        let i = *self.open.iter().find(|&&i| self.ctas[i].linear == linear)?;
        self.last = i;
        Some(i)
    }
}

impl Observer for BasicBlockVectors {
    const INSTRUCTIONS: bool = false;
    const MEMORY: bool = false;
    const BRANCHES: bool = false;

    fn fork(&self) -> Self {
        BasicBlockVectors {
            columns: self.columns.clone(),
            window: self.window.clone(),
            on: self.on,
            cur: self.cur.clone(),
            tpb: self.tpb,
            info: None,
            ctas: Vec::new(),
            open: Vec::new(),
            last: 0,
            unmapped: 0,
            launches: Vec::new(),
        }
    }

    fn join(&mut self, o: Self) {
        self.ctas.extend(o.ctas);
        self.unmapped += o.unmapped;
        self.launches.extend(o.launches);
    }

    fn launch_begin(&mut self, l: &LaunchInfo) {
        self.on = self.window.select(&l.kernel);
        self.cur = self.columns.kernel(l.func).cloned();
        self.tpb = l.block.iter().product();
        self.info = Some(l.clone());
        self.ctas.clear();
        self.open.clear();
    }

    fn launch_end(&mut self, l: &LaunchInfo, _s: &LaunchStats) {
        let Some(cols) = self.cur.take() else { return };
        if !self.on {
            return;
        }
        let n = cols.columns.len();
        let tpb = self.tpb as usize;
        let nctas: usize = l.grid.iter().map(|&x| x as usize).product();
        let mut counts = vec![0u32; nctas * tpb * n];
        for c in self.ctas.drain(..) {
            let at = c.linear as usize * tpb * n;
            if let Some(dst) = counts.get_mut(at..at + c.counts.len()) {
                dst.copy_from_slice(&c.counts);
            }
        }
        self.open.clear();
        self.launches.push(LaunchBbv {
            launch: l.index,
            kernel: l.func,
            grid: l.grid,
            block: l.block,
            columns: cols.columns.clone(),
            counts,
        });
    }

    fn cta_begin(&mut self, _sm: u32, _cta: [u32; 3], linear: u32) {
        if !self.on {
            return;
        }
        let Some(cols) = &self.cur else { return };
        let n = cols.columns.len() * self.tpb as usize;
        self.open.push(self.ctas.len());
        self.ctas.push(CtaCounts {
            linear,
            counts: vec![0; n],
        });
    }

    fn cta_end(&mut self, _sm: u32, _cta: [u32; 3], linear: u32) {
        self.open.retain(|&i| self.ctas[i].linear != linear);
    }

    #[inline]
    fn block_entered(&mut self, w: &WarpInfo, func: FuncId, block: Block, active: u32) {
        if !self.on {
            return;
        }
        let Some(cols) = &self.cur else { return };
        let base = cols.col_base.get(func.index()).copied().unwrap_or(NO_COL);
        if base == NO_COL {
            self.unmapped += 1;
            return;
        }
        let n = cols.columns.len();
        let col = base as usize + block.index();
        let Some(slot) = self.cta_slot(w.cta_linear) else {
            self.unmapped += 1;
            return;
        };
        let counts = &mut self.ctas[slot].counts;
        let row0 = w.warp_in_cta as usize * 32;
        let mut m = active;
        while m != 0 {
            let lane = m.trailing_zeros() as usize;
            m &= m - 1;
            if let Some(c) = counts.get_mut((row0 + lane) * n + col) {
                *c += 1;
            }
        }
    }
}

const MAGIC: &[u8; 6] = b"WSBBV\0";
const VERSION: u16 = 1;

/// Encodes launches in the binary layout of the module docs.
pub fn encode(module: &Module, launches: &[LaunchBbv]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    varint::put(&mut out, module.funcs.len() as u64);
    for (_, f) in module.funcs.iter() {
        varint::put_str(&mut out, &f.name);
    }
    varint::put(&mut out, launches.len() as u64);
    for l in launches {
        varint::put(&mut out, u64::from(l.launch));
        varint::put(&mut out, l.kernel.index() as u64);
        for v in l.grid.iter().chain(&l.block) {
            varint::put(&mut out, u64::from(*v));
        }
        varint::put(&mut out, l.columns.len() as u64);
        for (f, b, n) in &l.columns {
            varint::put(&mut out, f.index() as u64);
            varint::put(&mut out, b.index() as u64);
            varint::put(&mut out, u64::from(*n));
        }
        let (vectors, ids) = distinct(l);
        varint::put(&mut out, vectors.len() as u64);
        for v in &vectors {
            for &c in *v {
                varint::put(&mut out, u64::from(c));
            }
        }
        varint::put(&mut out, ids.len() as u64);
        for id in ids {
            varint::put(&mut out, u64::from(id));
        }
    }
    out
}

/// The distinct vectors of a launch (in order of first thread) and each thread's vector id.
fn distinct(l: &LaunchBbv) -> (Vec<&[u32]>, Vec<u32>) {
    // FxHash, not SipHash: rows are whole threads' counts (one per thread, a million at the
    // issue's size), the keys are ours, and the ids follow first appearance, not the table.
    let mut seen: rustc_hash::FxHashMap<&[u32], u32> = rustc_hash::FxHashMap::default();
    let mut vectors: Vec<&[u32]> = Vec::new();
    let mut ids = Vec::with_capacity(l.threads());
    if l.columns.is_empty() {
        return (vectors, vec![0; 0]);
    }
    for row in l.counts.chunks(l.columns.len()) {
        let id = *seen.entry(row).or_insert_with(|| {
            vectors.push(row);
            (vectors.len() - 1) as u32
        });
        ids.push(id);
    }
    (vectors, ids)
}

/// One launch of a BBV file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BbvLaunch {
    pub launch: u32,
    /// Function-table index of the kernel.
    pub kernel: u32,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    /// (function-table index, block index, instructions) per column.
    pub columns: Vec<(u32, u32, u32)>,
    /// Distinct vectors.
    pub vectors: Vec<Vec<u64>>,
    /// Vector id of each thread.
    pub thread_vector: Vec<u32>,
}

impl BbvLaunch {
    /// The vector of thread `t`.
    pub fn thread(&self, t: usize) -> &[u64] {
        &self.vectors[self.thread_vector[t] as usize]
    }
}

/// A BBV file read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BbvFile {
    pub functions: Vec<String>,
    pub launches: Vec<BbvLaunch>,
}

impl BbvFile {
    /// Parses the binary layout of the module docs.
    pub fn read(bytes: &[u8]) -> io::Result<BbvFile> {
        let bad = |m: &str| io::Error::new(io::ErrorKind::InvalidData, m.to_string());
        if bytes.len() < 8 || &bytes[..6] != MAGIC {
            return Err(bad("not a warpscope BBV file"));
        }
        let version = u16::from_le_bytes([bytes[6], bytes[7]]);
        if version != VERSION {
            return Err(bad("unsupported BBV file version"));
        }
        let mut c = Cursor::new(&bytes[8..]);
        let nf = c.var()? as usize;
        let mut functions = Vec::with_capacity(nf.min(1 << 16));
        for _ in 0..nf {
            functions.push(c.string()?);
        }
        let nl = c.var()? as usize;
        let mut launches = Vec::new();
        for _ in 0..nl {
            let launch = c.var32()?;
            let kernel = c.var32()?;
            let mut dims = [0u32; 6];
            for d in &mut dims {
                *d = c.var32()?;
            }
            let ncols = c.var()? as usize;
            let mut columns = Vec::with_capacity(ncols.min(1 << 20));
            for _ in 0..ncols {
                columns.push((c.var32()?, c.var32()?, c.var32()?));
            }
            let nv = c.var()? as usize;
            let mut vectors = Vec::with_capacity(nv.min(1 << 20));
            for _ in 0..nv {
                let mut v = Vec::with_capacity(ncols);
                for _ in 0..ncols {
                    v.push(c.var()?);
                }
                vectors.push(v);
            }
            let nt = c.var()? as usize;
            let mut thread_vector = Vec::with_capacity(nt.min(1 << 26));
            for _ in 0..nt {
                let id = c.var32()?;
                if id as usize >= nv {
                    return Err(bad("thread refers to a missing vector"));
                }
                thread_vector.push(id);
            }
            launches.push(BbvLaunch {
                launch,
                kernel,
                grid: [dims[0], dims[1], dims[2]],
                block: [dims[3], dims[4], dims[5]],
                columns,
                vectors,
                thread_vector,
            });
        }
        Ok(BbvFile {
            functions,
            launches,
        })
    }
}

/// JSON summary of one column.
#[derive(Clone, Debug, Serialize)]
pub struct ColumnSummary {
    pub function: String,
    pub block: String,
    pub instructions: u32,
    /// Executions summed over threads.
    pub executions: u64,
    /// Threads that executed the block at least once.
    pub threads: u64,
    pub min: u32,
    pub max: u32,
}

/// JSON summary of one launch.
#[derive(Clone, Debug, Serialize)]
pub struct LaunchSummary {
    pub launch: u32,
    pub kernel: String,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub threads: usize,
    pub distinct_vectors: usize,
    pub columns: Vec<ColumnSummary>,
    /// The most common vectors, with how many threads share each (at most 8).
    pub top_vectors: Vec<VectorSummary>,
}

#[derive(Clone, Debug, Serialize)]
pub struct VectorSummary {
    pub threads: usize,
    pub counts: Vec<u32>,
}

/// The JSON summary of the BBVs of a run.
pub fn summary(module: &Module, launches: &[LaunchBbv]) -> Vec<LaunchSummary> {
    launches
        .iter()
        .map(|l| {
            let n = l.columns.len();
            let mut cols: Vec<ColumnSummary> = l
                .columns
                .iter()
                .map(|(f, b, insts)| {
                    let func = &module.funcs[*f];
                    ColumnSummary {
                        function: func.name.clone(),
                        block: func.blocks[*b]
                            .labels
                            .first()
                            .cloned()
                            .unwrap_or_else(|| format!("block{}", b.index())),
                        instructions: *insts,
                        executions: 0,
                        threads: 0,
                        min: u32::MAX,
                        max: 0,
                    }
                })
                .collect();
            if n > 0 {
                for row in l.counts.chunks(n) {
                    for (c, &v) in cols.iter_mut().zip(row) {
                        c.executions += u64::from(v);
                        c.threads += u64::from(v > 0);
                        c.min = c.min.min(v);
                        c.max = c.max.max(v);
                    }
                }
            }
            for c in &mut cols {
                if c.min == u32::MAX {
                    c.min = 0;
                }
            }
            let (vectors, ids) = distinct(l);
            let mut freq = vec![0usize; vectors.len()];
            for id in &ids {
                freq[*id as usize] += 1;
            }
            let mut order: Vec<usize> = (0..vectors.len()).collect();
            order.sort_by(|&a, &b| freq[b].cmp(&freq[a]).then(a.cmp(&b)));
            LaunchSummary {
                launch: l.launch,
                kernel: module.funcs[l.kernel].name.clone(),
                grid: l.grid,
                block: l.block,
                threads: l.threads(),
                distinct_vectors: vectors.len(),
                columns: cols,
                top_vectors: order
                    .into_iter()
                    .take(8)
                    .map(|i| VectorSummary {
                        threads: freq[i],
                        counts: vectors[i].to_vec(),
                    })
                    .collect(),
            }
        })
        .collect()
}
