//! Memory spaces and generic addressing.
//!
//! Generic addresses are 64-bit; each state space has its own window so a generic pointer
//! says which space it points into (as on the GPU, where `cvta` converts between them):
//!
//! | window | generic range | space address |
//! |---|---|---|
//! | local (per thread) | [`LOCAL_WINDOW`] + offset | offset from 0 |
//! | shared (per block) | [`SHARED_WINDOW`] + offset | offset from 0 (32-bit) |
//! | const | [`CONST_WINDOW`] + offset | offset from 0 |
//! | kernel params | [`PARAM_WINDOW`] + offset | offset from 0 |
//! | functions | [`FUNC_WINDOW`] + index × 16 | (function pointers) |
//! | global | [`GLOBAL_BASE`] and up | same as generic |
//!
//! Global memory (device buffers and `.global` variables) is shared by all host threads
//! that run blocks in parallel. It is stored as 32-bit atomic words accessed with relaxed
//! ordering: plain loads and stores compile to ordinary moves, atomics are real atomics, and
//! nothing is a data race in Rust's sense. 8/16-bit stores update their word with a CAS loop
//! so neighbouring bytes written concurrently are never lost; 64-bit atomics take one of a
//! set of striped locks (they are atomic with respect to each other, not to 32-bit atomics
//! on the same bytes). Shared and local memory belong to one block / thread, which one host
//! thread runs, so they are plain bytes.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering::Relaxed};

/// Start of the per-thread local window.
pub const LOCAL_WINDOW: u64 = 0x1000_0000;
/// Start of the per-block shared window.
pub const SHARED_WINDOW: u64 = 0x2000_0000;
/// Start of the constant bank window.
pub const CONST_WINDOW: u64 = 0x3000_0000;
/// Start of the kernel-parameter window.
pub const PARAM_WINDOW: u64 = 0x4000_0000;
/// Function pointers: `FUNC_WINDOW + 16 × index`.
pub const FUNC_WINDOW: u64 = 0x5000_0000;
/// Size of each of the windows above.
pub const WINDOW_SIZE: u64 = 0x1000_0000;
/// First global address (device buffers, then `.global` variables).
pub const GLOBAL_BASE: u64 = 0x7f00_0000_0000;
/// Alignment of every global allocation.
pub const GLOBAL_ALIGN: u64 = 4096;
/// Unmapped bytes between global allocations (so overruns fault instead of landing in the
/// next buffer).
pub const GLOBAL_GAP: u64 = 4096;

/// Which window a generic address falls in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Window {
    Local(u64),
    Shared(u64),
    Const(u64),
    Param(u64),
    Global(u64),
    Func(u64),
    None,
}

/// Classifies a generic address.
#[inline]
pub fn window_of(addr: u64) -> Window {
    if addr >= GLOBAL_BASE {
        return Window::Global(addr);
    }
    let w = addr & !(WINDOW_SIZE - 1);
    let off = addr - w;
    match w {
        LOCAL_WINDOW => Window::Local(off),
        SHARED_WINDOW => Window::Shared(off),
        CONST_WINDOW => Window::Const(off),
        PARAM_WINDOW => Window::Param(off),
        FUNC_WINDOW => Window::Func(off),
        _ => Window::None,
    }
}

/// One global allocation.
#[derive(Debug)]
pub struct Region {
    /// Buffer or variable name (for fault messages).
    pub name: String,
    pub base: u64,
    /// Size in bytes as requested.
    pub size: u64,
    words: Box<[AtomicU32]>,
}

impl Region {
    /// Bytes `[off, off+n)` little-endian into a u64 (n ≤ 8, within one or two words).
    #[inline]
    fn load(&self, off: u64, n: u32) -> u64 {
        let i = (off >> 2) as usize;
        let sh = ((off & 3) * 8) as u32;
        match n {
            4 if sh == 0 => u64::from(self.words[i].load(Relaxed)),
            8 if sh == 0 => {
                u64::from(self.words[i].load(Relaxed))
                    | (u64::from(self.words[i + 1].load(Relaxed)) << 32)
            }
            _ => {
                // Sub-word (naturally aligned: never crosses a word).
                let w = u64::from(self.words[i].load(Relaxed));
                let mask = if n >= 8 {
                    u64::MAX
                } else {
                    (1u64 << (n * 8)) - 1
                };
                (w >> sh) & mask
            }
        }
    }

    #[inline]
    fn store(&self, off: u64, n: u32, v: u64) {
        let i = (off >> 2) as usize;
        let sh = ((off & 3) * 8) as u32;
        match n {
            4 if sh == 0 => self.words[i].store(v as u32, Relaxed),
            8 if sh == 0 => {
                self.words[i].store(v as u32, Relaxed);
                self.words[i + 1].store((v >> 32) as u32, Relaxed);
            }
            _ => {
                let mask = (((1u64 << (n * 8)) - 1) as u32) << sh;
                let bits = ((v as u32) << sh) & mask;
                let _ = self.words[i].fetch_update(Relaxed, Relaxed, |w| Some((w & !mask) | bits));
            }
        }
    }

    /// The region's words (for the executor's fast paths).
    #[inline]
    pub fn words(&self) -> &[AtomicU32] {
        &self.words
    }

    /// Copies the region out as bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(self.words.len() * 4);
        for w in self.words.iter() {
            out.extend_from_slice(&w.load(Relaxed).to_le_bytes());
        }
        out.truncate(self.size as usize);
        out
    }

    /// Overwrites the region's first bytes.
    pub fn write_bytes(&self, data: &[u8]) {
        for (i, chunk) in data.chunks(4).enumerate() {
            let mut b = [0u8; 4];
            b[..chunk.len()].copy_from_slice(chunk);
            if let Some(w) = self.words.get(i) {
                if chunk.len() == 4 {
                    w.store(u32::from_le_bytes(b), Relaxed);
                } else {
                    let mask = (1u32 << (chunk.len() * 8)) - 1;
                    let v = u32::from_le_bytes(b);
                    let _ = w.fetch_update(Relaxed, Relaxed, |x| Some((x & !mask) | (v & mask)));
                }
            }
        }
    }
}

/// Why a global access failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccessError {
    /// No allocation contains the bytes.
    Unmapped,
    /// Not aligned to the access size.
    Misaligned,
    /// Written to read-only memory.
    ReadOnly,
}

/// All global allocations of a run (device buffers and module `.global` variables).
#[derive(Debug, Default)]
pub struct GlobalMem {
    regions: Vec<Region>,
    next: u64,
    locks: Vec<AtomicBool>,
}

const NLOCKS: usize = 1024;

impl GlobalMem {
    pub fn new() -> GlobalMem {
        GlobalMem {
            regions: Vec::new(),
            next: GLOBAL_BASE,
            locks: (0..NLOCKS).map(|_| AtomicBool::new(false)).collect(),
        }
    }

    /// Allocates `size` zeroed bytes; returns the region index and base address.
    pub fn alloc(&mut self, name: &str, size: u64) -> Option<(usize, u64)> {
        let words = size.div_ceil(4).max(1);
        let words = usize::try_from(words).ok()?;
        let base = self.next;
        let mut v = Vec::new();
        v.try_reserve_exact(words).ok()?;
        v.resize_with(words, || AtomicU32::new(0));
        self.regions.push(Region {
            name: name.to_string(),
            base,
            size,
            words: v.into_boxed_slice(),
        });
        let end = base.checked_add(size.max(1))?.checked_add(GLOBAL_GAP)?;
        self.next = end.div_ceil(GLOBAL_ALIGN) * GLOBAL_ALIGN;
        Some((self.regions.len() - 1, base))
    }

    pub fn region(&self, i: usize) -> &Region {
        &self.regions[i]
    }

    pub fn regions(&self) -> &[Region] {
        &self.regions
    }

    /// Index of the region containing `addr`.
    #[inline]
    pub fn find(&self, addr: u64) -> Option<usize> {
        let i = self.regions.partition_point(|r| r.base <= addr);
        if i == 0 {
            return None;
        }
        let r = &self.regions[i - 1];
        (addr - r.base < r.size).then_some(i - 1)
    }

    /// The region holding `[addr, addr+n)` and the offset, with alignment checked.
    #[inline]
    pub fn locate(&self, addr: u64, n: u32) -> Result<(usize, u64), AccessError> {
        if addr & (u64::from(n.min(16)) - 1) != 0 {
            return Err(AccessError::Misaligned);
        }
        let i = self.find(addr).ok_or(AccessError::Unmapped)?;
        let r = &self.regions[i];
        let off = addr - r.base;
        if off + u64::from(n) > r.size {
            return Err(AccessError::Unmapped);
        }
        Ok((i, off))
    }

    /// Loads `n` bytes (1, 2, 4, 8) at a located offset.
    #[inline]
    pub fn load(&self, region: usize, off: u64, n: u32) -> u64 {
        self.regions[region].load(off, n)
    }

    #[inline]
    pub fn store(&self, region: usize, off: u64, n: u32, v: u64) {
        self.regions[region].store(off, n, v)
    }

    /// Atomically applies `f` to the `n`-byte value (2, 4 or 8) at a located offset;
    /// returns the old value.
    pub fn rmw(&self, region: usize, off: u64, n: u32, f: impl Fn(u64) -> u64) -> u64 {
        let r = &self.regions[region];
        let i = (off >> 2) as usize;
        match n {
            4 => {
                let old = r.words[i]
                    .fetch_update(Relaxed, Relaxed, |w| Some(f(u64::from(w)) as u32))
                    .unwrap_or_else(|w| w);
                u64::from(old)
            }
            2 => {
                let sh = ((off & 3) * 8) as u32;
                let mask = 0xffffu32 << sh;
                let old = r.words[i]
                    .fetch_update(Relaxed, Relaxed, |w| {
                        let v = f(u64::from((w & mask) >> sh)) as u32 & 0xffff;
                        Some((w & !mask) | (v << sh))
                    })
                    .unwrap_or_else(|w| w);
                u64::from((old & mask) >> sh)
            }
            _ => {
                let lock = &self.locks[((r.base + off) >> 3) as usize % NLOCKS];
                while lock
                    .compare_exchange_weak(
                        false,
                        true,
                        std::sync::atomic::Ordering::Acquire,
                        Relaxed,
                    )
                    .is_err()
                {
                    std::hint::spin_loop();
                }
                let old = r.load(off, 8);
                r.store(off, 8, f(old));
                lock.store(false, std::sync::atomic::Ordering::Release);
                old
            }
        }
    }
}

/// Reads `n` (1, 2, 4 or 8) little-endian bytes of plain memory at `off`.
#[inline(always)]
pub fn read_plain(mem: &[u8], off: usize, n: usize) -> Option<u64> {
    let end = off.checked_add(n)?;
    let s = mem.get(off..end)?;
    Some(match n {
        4 => u64::from(u32::from_le_bytes([s[0], s[1], s[2], s[3]])),
        8 => u64::from_le_bytes([s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]]),
        2 => u64::from(u16::from_le_bytes([s[0], s[1]])),
        1 => u64::from(s[0]),
        _ => {
            let mut b = [0u8; 8];
            b[..n.min(8)].copy_from_slice(&s[..n.min(8)]);
            u64::from_le_bytes(b)
        }
    })
}

/// Writes the low `n` (1, 2, 4 or 8) bytes of `v` into plain memory at `off`.
#[inline(always)]
pub fn write_plain(mem: &mut [u8], off: usize, n: usize, v: u64) -> Option<()> {
    let end = off.checked_add(n)?;
    let s = mem.get_mut(off..end)?;
    match n {
        4 => s.copy_from_slice(&(v as u32).to_le_bytes()),
        8 => s.copy_from_slice(&v.to_le_bytes()),
        2 => s.copy_from_slice(&(v as u16).to_le_bytes()),
        1 => s[0] = v as u8,
        _ => {
            let k = n.min(8);
            s[..k].copy_from_slice(&v.to_le_bytes()[..k]);
        }
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_are_disjoint() {
        assert_eq!(window_of(LOCAL_WINDOW + 8), Window::Local(8));
        assert_eq!(window_of(SHARED_WINDOW), Window::Shared(0));
        assert_eq!(window_of(GLOBAL_BASE + 4), Window::Global(GLOBAL_BASE + 4));
        assert_eq!(window_of(0), Window::None);
    }

    #[test]
    fn global_load_store_and_atomics() {
        let mut g = GlobalMem::new();
        let (a, base) = g.alloc("a", 10).unwrap();
        let (b, base_b) = g.alloc("b", 8).unwrap();
        assert!(base_b >= base + 10 + GLOBAL_GAP);
        assert_eq!(g.locate(base + 8, 2), Ok((a, 8)));
        assert_eq!(g.locate(base + 9, 2), Err(AccessError::Misaligned));
        assert_eq!(g.locate(base + 10, 2), Err(AccessError::Unmapped));
        assert_eq!(g.locate(base_b, 8), Ok((b, 0)));
        g.store(a, 0, 4, 0xdead_beef);
        g.store(a, 4, 2, 0x1234);
        g.store(a, 6, 1, 0x56);
        assert_eq!(g.load(a, 0, 8), 0x0056_1234_dead_beef);
        assert_eq!(g.load(a, 1, 1), 0xbe);
        assert_eq!(g.rmw(a, 0, 4, |x| x + 1), 0xdead_beef);
        assert_eq!(g.rmw(a, 4, 2, |x| x + 1), 0x1234);
        assert_eq!(g.load(a, 4, 2), 0x1235);
        assert_eq!(g.rmw(b, 0, 8, |x| x.wrapping_sub(1)), 0);
        assert_eq!(g.load(b, 0, 8), u64::MAX);
        assert_eq!(g.region(a).to_bytes().len(), 10);
    }
}
