//! A streamed, compact binary trace of every warp memory request (`warpscope profile
//! --trace FILE`), for the cache simulator (paper 001, GRAB) and other offline tools.
//!
//! [`MemoryTrace`] encodes requests into a per-SM buffer as they are issued and hands full
//! buffers (and, at the end of each launch, the rest) to a shared writer as *chunks*, so
//! memory stays bounded however long the run. [`TraceReader`] reads the file back.
//!
//! ## Layout
//!
//! Integers are unsigned LEB128 varints unless stated; strings are a varint byte length and
//! UTF-8 bytes.
//!
//! ```text
//! file     := magic "WSTRACE\0" (8 bytes) · version u16 LE (= 1) · flags u16 LE (= 0)
//!             · record* · 0xFF
//! record   := 0x01 launch | 0x02 chunk | 0x03 instruction
//! launch   := index · kernel (string) · grid.x grid.y grid.z · block.x block.y block.z
//!             · num_sms
//! chunk    := launch · sm · first_seq · count · nbytes · nbytes of `count` requests
//! request  := warp · function · inst · access (u8) · size (u8) · active (u32 LE)
//!             · address of the first active lane
//!             · for each further active lane, in lane order: zigzag(address − previous)
//! access   := space (bits 0–2: 0 global, 1 shared, 2 local, 3 const, 4 param)
//!             | kind << 3 (bits 3–4: 0 load, 1 store, 2 atomic, 3 reduction)
//!             | generic << 5 (bit 5: the instruction used generic addressing)
//! instruction := function · inst · function name · PTX line · CUDA file (empty if none)
//!             · CUDA line · instruction text
//! ```
//!
//! * `warp` is the warp's number within its launch
//!   (`cta_linear × warps_per_cta + warp_in_cta`; `warps_per_cta = ⌈threads per block / 32⌉`).
//! * Order of issue: requests of one SM in one launch are numbered `first_seq, first_seq+1,
//!   …` in the order that SM issued them (all chunks of an SM together cover `0 … n−1`). SMs
//!   run independently, so no order between SMs is defined; a cache simulator of per-SM L1s
//!   replays each SM's stream in `seq` order. Launches traced run on the emulated schedule
//!   (the trace's forks share the writer, [`Observer::SHARED_STATE`]), so the order of
//!   chunks, and the file byte for byte, is the same whatever the host's thread count.
//! * Addresses are those the emulator reports: virtual addresses for global memory, byte
//!   offsets for shared memory (per block) and local memory (per thread).
//! * `instruction` records (written after the last launch) name the instructions requests
//!   refer to.

use std::io::{self, Read, Write};
use std::sync::{Arc, Mutex};
use warpscope_emu::{
    AccessKind, LaunchInfo, LaunchStats, MemSpace, MemoryAccess, Observer, WarpInfo,
};

use crate::observe::LaunchWindow;
use crate::varint::{self, Cursor};

const MAGIC: &[u8; 8] = b"WSTRACE\0";
const VERSION: u16 = 1;
const TAG_LAUNCH: u8 = 1;
const TAG_CHUNK: u8 = 2;
const TAG_INST: u8 = 3;
const TAG_END: u8 = 0xff;
/// A fork hands its buffer to the writer once it holds this many bytes.
const FLUSH_BYTES: usize = 4 << 20;

struct Sink {
    out: Box<dyn Write + Send>,
    error: Option<io::Error>,
    requests: u64,
    bytes: u64,
}

impl Sink {
    fn write(&mut self, b: &[u8]) {
        if self.error.is_some() {
            return;
        }
        match self.out.write_all(b) {
            Ok(()) => self.bytes += b.len() as u64,
            Err(e) => self.error = Some(e),
        }
    }
}

/// What a finished trace holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TraceStats {
    pub requests: u64,
    pub bytes: u64,
}

/// Observer that streams memory requests to a writer.
pub struct MemoryTrace {
    sink: Arc<Mutex<Sink>>,
    window: LaunchWindow,
    on: bool,
    launch: u32,
    sm: u32,
    seq: u64,
    chunk_seq: u64,
    count: u64,
    buf: Vec<u8>,
}

impl MemoryTrace {
    /// A trace written to `out` (the header is written now).
    pub fn new(out: Box<dyn Write + Send>, window: LaunchWindow) -> io::Result<MemoryTrace> {
        let mut sink = Sink {
            out,
            error: None,
            requests: 0,
            bytes: 0,
        };
        let mut h = MAGIC.to_vec();
        h.extend_from_slice(&VERSION.to_le_bytes());
        h.extend_from_slice(&0u16.to_le_bytes());
        sink.write(&h);
        if let Some(e) = sink.error.take() {
            return Err(e);
        }
        Ok(MemoryTrace {
            sink: Arc::new(Mutex::new(sink)),
            window,
            on: false,
            launch: 0,
            sm: u32::MAX,
            seq: 0,
            chunk_seq: 0,
            count: 0,
            buf: Vec::new(),
        })
    }

    fn flush_chunk(&mut self) {
        if self.count == 0 {
            return;
        }
        let mut h = Vec::with_capacity(24);
        h.push(TAG_CHUNK);
        varint::put(&mut h, u64::from(self.launch));
        varint::put(&mut h, u64::from(self.sm));
        varint::put(&mut h, self.chunk_seq);
        varint::put(&mut h, self.count);
        varint::put(&mut h, self.buf.len() as u64);
        if let Ok(mut s) = self.sink.lock() {
            s.write(&h);
            s.write(&self.buf);
            s.requests += self.count;
        }
        self.buf.clear();
        self.chunk_seq = self.seq;
        self.count = 0;
    }

    /// Writes the instruction table (after the last launch).
    pub fn write_instruction(&self, rec: &TraceInstruction) {
        let mut b = vec![TAG_INST];
        varint::put(&mut b, u64::from(rec.function));
        varint::put(&mut b, u64::from(rec.inst));
        varint::put_str(&mut b, &rec.function_name);
        varint::put(&mut b, u64::from(rec.ptx_line));
        varint::put_str(&mut b, rec.file.as_deref().unwrap_or(""));
        varint::put(&mut b, u64::from(rec.line));
        varint::put_str(&mut b, &rec.text);
        if let Ok(mut s) = self.sink.lock() {
            s.write(&b);
        }
    }

    /// Ends the file and flushes the writer.
    pub fn finish(mut self) -> io::Result<TraceStats> {
        self.flush_chunk();
        let mut s = self
            .sink
            .lock()
            .map_err(|_| io::Error::other("trace writer poisoned"))?;
        s.write(&[TAG_END]);
        if let Some(e) = s.error.take() {
            return Err(e);
        }
        s.out.flush()?;
        Ok(TraceStats {
            requests: s.requests,
            bytes: s.bytes,
        })
    }
}

fn space_code(s: MemSpace) -> u8 {
    match s {
        MemSpace::Global => 0,
        MemSpace::Shared => 1,
        MemSpace::Local => 2,
        MemSpace::Const => 3,
        MemSpace::Param => 4,
    }
}

fn kind_code(k: AccessKind) -> u8 {
    match k {
        AccessKind::Load => 0,
        AccessKind::Store => 1,
        AccessKind::Atomic => 2,
        AccessKind::Reduction => 3,
    }
}

impl Observer for MemoryTrace {
    const INSTRUCTIONS: bool = false;
    const BLOCKS: bool = false;
    const BRANCHES: bool = false;
    /// Forks share the writer, and full chunks are written when they fill up.
    const SHARED_STATE: bool = true;

    fn fork(&self) -> Self {
        MemoryTrace {
            sink: self.sink.clone(),
            window: self.window.clone(),
            on: self.on,
            launch: self.launch,
            sm: u32::MAX,
            seq: 0,
            chunk_seq: 0,
            count: 0,
            buf: Vec::new(),
        }
    }

    fn join(&mut self, mut o: Self) {
        o.flush_chunk();
    }

    fn launch_begin(&mut self, l: &LaunchInfo) {
        self.flush_chunk();
        self.launch = l.index;
        self.on = self.window.select(&l.kernel);
        self.sm = u32::MAX;
        self.seq = 0;
        self.chunk_seq = 0;
        if !self.on {
            return;
        }
        let mut b = vec![TAG_LAUNCH];
        varint::put(&mut b, u64::from(l.index));
        varint::put_str(&mut b, &l.kernel);
        for v in l.grid.iter().chain(&l.block) {
            varint::put(&mut b, u64::from(*v));
        }
        varint::put(&mut b, u64::from(l.num_sms));
        if let Ok(mut s) = self.sink.lock() {
            s.write(&b);
        }
    }

    fn launch_end(&mut self, _l: &LaunchInfo, _s: &LaunchStats) {
        self.flush_chunk();
    }

    #[inline]
    fn memory(&mut self, w: &WarpInfo, a: &MemoryAccess<'_>) {
        if !self.on || a.active == 0 {
            return;
        }
        if w.sm != self.sm {
            self.flush_chunk();
            self.sm = w.sm;
            self.seq = 0;
            self.chunk_seq = 0;
        }
        use cranelift_entity::EntityRef;
        let b = &mut self.buf;
        varint::put(b, w.global_warp);
        varint::put(b, a.func.index() as u64);
        varint::put(b, a.inst.index() as u64);
        b.push(space_code(a.space) | kind_code(a.kind) << 3 | u8::from(a.generic) << 5);
        b.push(a.size.min(255) as u8);
        b.extend_from_slice(&a.active.to_le_bytes());
        let mut m = a.active;
        let mut prev: Option<u64> = None;
        while m != 0 {
            let lane = m.trailing_zeros() as usize;
            m &= m - 1;
            let addr = a.addrs[lane];
            match prev {
                None => varint::put(b, addr),
                Some(p) => varint::put(b, varint::zigzag(addr.wrapping_sub(p) as i64)),
            }
            prev = Some(addr);
        }
        self.seq += 1;
        self.count += 1;
        if self.buf.len() >= FLUSH_BYTES {
            self.flush_chunk();
        }
    }
}

/// An instruction named by a trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceInstruction {
    pub function: u32,
    pub inst: u32,
    pub function_name: String,
    pub ptx_line: u32,
    pub file: Option<String>,
    pub line: u32,
    pub text: String,
}

/// A launch as a trace records it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceLaunch {
    pub index: u32,
    pub kernel: String,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub num_sms: u32,
}

/// Kind of a traced request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TraceKind {
    Load,
    Store,
    Atomic,
    Reduction,
}

/// Space of a traced request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TraceSpace {
    Global,
    Shared,
    Local,
    Const,
    Param,
}

/// One warp memory request read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceRequest {
    pub launch: u32,
    pub sm: u32,
    /// Issue order within (launch, SM).
    pub seq: u64,
    pub warp: u64,
    pub function: u32,
    pub inst: u32,
    pub space: TraceSpace,
    pub kind: TraceKind,
    pub generic: bool,
    pub size: u32,
    pub active: u32,
    /// Addresses of the active lanes (0 for the others).
    pub addrs: [u64; 32],
}

/// One record of a trace. Requests, by far the most common record, are kept unboxed.
#[derive(Clone, Debug, PartialEq, Eq)]
#[allow(clippy::large_enum_variant)]
pub enum TraceEvent {
    Launch(TraceLaunch),
    Request(TraceRequest),
    Instruction(TraceInstruction),
}

/// Reads a trace written by [`MemoryTrace`].
pub struct TraceReader<R: Read> {
    r: R,
    chunk: Vec<u8>,
    pos: usize,
    left: u64,
    launch: u32,
    sm: u32,
    seq: u64,
    done: bool,
}

fn invalid(m: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, m.to_string())
}

impl<R: Read> TraceReader<R> {
    /// Checks the header.
    pub fn new(mut r: R) -> io::Result<TraceReader<R>> {
        let mut h = [0u8; 12];
        r.read_exact(&mut h)?;
        if &h[..8] != MAGIC {
            return Err(invalid("not a warpscope trace"));
        }
        if u16::from_le_bytes([h[8], h[9]]) != VERSION {
            return Err(invalid("unsupported trace version"));
        }
        Ok(TraceReader {
            r,
            chunk: Vec::new(),
            pos: 0,
            left: 0,
            launch: 0,
            sm: 0,
            seq: 0,
            done: false,
        })
    }

    fn var(&mut self) -> io::Result<u64> {
        varint::read_var(&mut self.r)?.ok_or_else(|| invalid("truncated trace"))
    }

    fn string(&mut self) -> io::Result<String> {
        let n = self.var()? as usize;
        if n > 1 << 20 {
            return Err(invalid("string too long"));
        }
        let mut b = vec![0u8; n];
        self.r.read_exact(&mut b)?;
        String::from_utf8(b).map_err(|_| invalid("string is not UTF-8"))
    }

    /// The next record; `None` after the end marker.
    pub fn next_event(&mut self) -> io::Result<Option<TraceEvent>> {
        if self.left > 0 {
            return self.request().map(|r| Some(TraceEvent::Request(r)));
        }
        if self.done {
            return Ok(None);
        }
        let mut tag = [0u8; 1];
        self.r.read_exact(&mut tag)?;
        match tag[0] {
            TAG_LAUNCH => {
                let index = self.var()? as u32;
                let kernel = self.string()?;
                let mut d = [0u32; 7];
                for x in &mut d {
                    *x = self.var()? as u32;
                }
                Ok(Some(TraceEvent::Launch(TraceLaunch {
                    index,
                    kernel,
                    grid: [d[0], d[1], d[2]],
                    block: [d[3], d[4], d[5]],
                    num_sms: d[6],
                })))
            }
            TAG_CHUNK => {
                self.launch = self.var()? as u32;
                self.sm = self.var()? as u32;
                self.seq = self.var()?;
                self.left = self.var()?;
                let n = self.var()? as usize;
                self.chunk.resize(n, 0);
                self.r.read_exact(&mut self.chunk)?;
                self.pos = 0;
                self.next_event()
            }
            TAG_INST => {
                let function = self.var()? as u32;
                let inst = self.var()? as u32;
                let function_name = self.string()?;
                let ptx_line = self.var()? as u32;
                let file = self.string()?;
                let line = self.var()? as u32;
                let text = self.string()?;
                Ok(Some(TraceEvent::Instruction(TraceInstruction {
                    function,
                    inst,
                    function_name,
                    ptx_line,
                    file: (!file.is_empty()).then_some(file),
                    line,
                    text,
                })))
            }
            TAG_END => {
                self.done = true;
                Ok(None)
            }
            t => Err(invalid(&format!("unknown trace record tag {t:#x}"))),
        }
    }

    fn request(&mut self) -> io::Result<TraceRequest> {
        let mut c = Cursor {
            bytes: &self.chunk,
            pos: self.pos,
        };
        let warp = c.var()?;
        let function = c.var32()?;
        let inst = c.var32()?;
        let acc = c.u8()?;
        let size = u32::from(c.u8()?);
        let active = c.u32_le()?;
        let mut addrs = [0u64; 32];
        let mut m = active;
        let mut prev: Option<u64> = None;
        while m != 0 {
            let lane = m.trailing_zeros() as usize;
            m &= m - 1;
            let a = match prev {
                None => c.var()?,
                Some(p) => p.wrapping_add(varint::unzigzag(c.var()?) as u64),
            };
            addrs[lane] = a;
            prev = Some(a);
        }
        self.pos = c.pos;
        self.left -= 1;
        let seq = self.seq;
        self.seq += 1;
        let space = match acc & 7 {
            0 => TraceSpace::Global,
            1 => TraceSpace::Shared,
            2 => TraceSpace::Local,
            3 => TraceSpace::Const,
            4 => TraceSpace::Param,
            _ => return Err(invalid("bad space code")),
        };
        let kind = match (acc >> 3) & 3 {
            0 => TraceKind::Load,
            1 => TraceKind::Store,
            2 => TraceKind::Atomic,
            _ => TraceKind::Reduction,
        };
        Ok(TraceRequest {
            launch: self.launch,
            sm: self.sm,
            seq,
            warp,
            function,
            inst,
            space,
            kind,
            generic: acc & 0x20 != 0,
            size,
            active,
            addrs,
        })
    }

    /// Reads every remaining record.
    pub fn read_all(&mut self) -> io::Result<Vec<TraceEvent>> {
        let mut v = Vec::new();
        while let Some(e) = self.next_event()? {
            v.push(e);
        }
        Ok(v)
    }
}
