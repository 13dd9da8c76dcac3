//! Memory and address spaces: address resolution per lane, bounds checks and faults,
//! the single-allocation fast paths for global and shared accesses, `ld`/`st`/`cp.async`,
//! parameter loads, `cvta` and `isspacep` (translated by `translate::memory`).

#![allow(clippy::needless_range_loop)]

use super::*;

/// Resolved storage of one lane's access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Store {
    Global,
    Shared,
    Local,
    Const,
    KParam,
}

impl Store {
    pub(super) fn space(self) -> MemSpace {
        match self {
            Store::Global => MemSpace::Global,
            Store::Shared => MemSpace::Shared,
            Store::Local => MemSpace::Local,
            Store::Const => MemSpace::Const,
            Store::KParam => MemSpace::Param,
        }
    }
}

/// The byte offset of every `exec` lane's shared-memory access of `vec` elements of `n`
/// bytes at `addrs[lane] + off`, when every one is in bounds and aligned (the fast paths'
/// condition); None otherwise.
#[inline(always)]
fn shared_offsets(
    addrs: &[u64; 32],
    len: usize,
    exec: u32,
    off: i64,
    n: usize,
    vec: u8,
) -> Option<[usize; 32]> {
    let total = n * usize::from(vec);
    if !matches!(n, 1 | 2 | 4 | 8) || len < total {
        return None;
    }
    let lim = (len - total) as u64;
    let mut offs = [0usize; 32];
    let mut ok = true;
    for l in 0..32 {
        if exec >> l & 1 != 0 {
            let a = zx(addrs[l].wrapping_add(off as u64), 32);
            ok &= a <= lim && a & (total as u64 - 1) == 0;
            offs[l] = a as usize;
        }
    }
    ok.then_some(offs)
}

/// Shared-memory load of every active lane when all are in bounds and aligned (the common
/// case); false, having changed nothing, otherwise.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(super) fn fast_shared_ld(
    w: &mut Warp,
    shared: &[u8],
    rb: usize,
    exec: u32,
    r: R,
    off: i64,
    fmt: LoadFmt,
    vec: u8,
    d: &[R; 4],
) -> bool {
    let n = usize::from(fmt.size);
    let Some(offs) = shared_offsets(&w.regs[rb + r as usize], shared.len(), exec, off, n, vec)
    else {
        return false;
    };
    for k in 0..usize::from(vec) {
        if d[k] == NONE {
            continue;
        }
        let mut out = [0u64; 32];
        for l in 0..32 {
            if exec >> l & 1 != 0 {
                let o = offs[l] + k * n;
                out[l] = extend(fmt, read_plain(shared, o, n).unwrap_or(0));
            }
        }
        wr(&mut w.regs[rb + d[k] as usize], &out, exec);
    }
    true
}

/// Shared-memory store counterpart of [`fast_shared_ld`].
#[allow(clippy::too_many_arguments)]
#[inline(always)]
pub(super) fn fast_shared_st(
    w: &Warp,
    shared: &mut [u8],
    rb: usize,
    exec: u32,
    r: R,
    off: i64,
    size: u8,
    vec: u8,
    s: &[R; 4],
) -> bool {
    let n = usize::from(size);
    let Some(offs) = shared_offsets(&w.regs[rb + r as usize], shared.len(), exec, off, n, vec)
    else {
        return false;
    };
    for l in 0..32 {
        if exec >> l & 1 != 0 {
            for (k, &src) in s.iter().enumerate().take(usize::from(vec)) {
                if src != NONE {
                    let v = w.regs[rb + src as usize][l];
                    let _ = write_plain(shared, offs[l] + k * n, n, v);
                }
            }
        }
    }
    true
}

/// Widens a loaded element into its register.
#[inline(always)]
pub(super) fn extend(fmt: LoadFmt, v: u64) -> u64 {
    let bits = u32::from(fmt.size) * 8;
    let dst = u32::from(fmt.dst_bits);
    if fmt.signed && bits < 64 {
        zx(sx(v, bits) as u64, dst)
    } else {
        v
    }
}

impl<'a, O: Observer> Env<'a, O> {
    /// Resolves one lane's address to its storage and space address.
    #[inline(always)]
    pub(super) fn resolve(
        &self,
        space: Space,
        base_frame: bool,
        addr: u64,
    ) -> Result<(Store, u64), FaultKind> {
        if base_frame {
            return Ok((Store::Local, addr));
        }
        Ok(match space {
            Space::Global => (Store::Global, addr),
            Space::Shared => (Store::Shared, addr),
            Space::Local => (Store::Local, addr),
            Space::Const => (Store::Const, addr),
            Space::Param => (Store::KParam, addr),
            Space::Generic => match window_of(addr) {
                Window::Global(a) => (Store::Global, a),
                Window::Shared(o) => (Store::Shared, o),
                Window::Local(o) => (Store::Local, o),
                Window::Const(o) => (Store::Const, o),
                Window::Param(o) => (Store::KParam, o),
                Window::Func(_) | Window::None => {
                    return Err(FaultKind::BadGenericAddress { addr });
                }
            },
        })
    }

    #[cold]
    pub(super) fn oob_detail(
        &self,
        store: Store,
        addr: u64,
        size: u32,
        shared_len: usize,
    ) -> String {
        match store {
            Store::Global => {
                let regions = self.global.regions();
                let i = regions.partition_point(|r| r.base <= addr);
                let mut best: Option<String> = None;
                if i > 0 {
                    let r = &regions[i - 1];
                    let end = r.base + r.size;
                    if addr >= end || addr + u64::from(size) > end {
                        best = Some(format!(
                            "{} bytes past the end of `{}` ({:#x}, {} bytes)",
                            (addr + u64::from(size)).saturating_sub(end),
                            r.name,
                            r.base,
                            r.size
                        ));
                    }
                }
                if let Some(r) = regions.get(i)
                    && best.is_none()
                {
                    best = Some(format!(
                        "{} bytes before `{}` ({:#x}, {} bytes)",
                        r.base - addr,
                        r.name,
                        r.base,
                        r.size
                    ));
                }
                best.unwrap_or_else(|| "no device memory is allocated there".into())
            }
            Store::Shared => format!("the block has {shared_len} bytes of shared memory"),
            Store::Local => "outside the thread's local memory".into(),
            Store::Const => format!("the constant bank has {} bytes", self.constb.len()),
            Store::KParam => format!("the kernel has {} bytes of parameters", self.params.len()),
        }
    }

    #[cold]
    pub(super) fn access_fault(
        &self,
        store: Store,
        kind: AccessKind,
        addr: u64,
        size: u32,
        e: AccessError,
        shared_len: usize,
    ) -> FaultKind {
        match e {
            AccessError::Misaligned => FaultKind::Misaligned {
                space: store.space(),
                kind,
                addr,
                size,
            },
            AccessError::ReadOnly => FaultKind::ReadOnly {
                space: store.space(),
                addr,
            },
            AccessError::Unmapped => FaultKind::OutOfBounds {
                space: store.space(),
                kind,
                addr,
                size,
                detail: self.oob_detail(store, addr, size, shared_len),
            },
        }
    }

    #[inline(always)]
    pub(super) fn global_locate(&mut self, addr: u64, n: u32) -> Result<(usize, u64), AccessError> {
        let (base, size, idx) = self.rcache;
        let off = addr.wrapping_sub(base);
        if off < size && size - off >= u64::from(n) && addr & (u64::from(n.min(16)) - 1) == 0 {
            return Ok((idx, off));
        }
        let (i, off) = self.global.locate(addr, n)?;
        let global = self.global;
        let r = global.region(i);
        self.rcache = (r.base, r.size, i);
        self.fc_words = r.words();
        Ok((i, off))
    }

    /// Loads `n` bytes for lane `l`.
    #[inline(always)]
    pub(super) fn load(
        &mut self,
        w: &Warp,
        shared: &[u8],
        l: usize,
        store: Store,
        addr: u64,
        n: u32,
    ) -> Result<u64, AccessError> {
        let plain = |mem: &[u8]| -> Result<u64, AccessError> {
            // Access sizes are powers of two.
            if addr & (u64::from(n) - 1) != 0 {
                return Err(AccessError::Misaligned);
            }
            let off = usize::try_from(addr).map_err(|_| AccessError::Unmapped)?;
            read_plain(mem, off, n as usize).ok_or(AccessError::Unmapped)
        };
        match store {
            Store::Global => {
                let (i, off) = self.global_locate(addr, n)?;
                Ok(self.global.load(i, off, n))
            }
            Store::Shared => plain(shared),
            Store::Local => plain(w.local.get(l).map_or(&[][..], |v| &v[..])),
            Store::Const => plain(self.constb),
            Store::KParam => plain(self.params),
        }
    }

    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn store(
        &mut self,
        w: &mut Warp,
        shared: &mut [u8],
        l: usize,
        store: Store,
        addr: u64,
        n: u32,
        v: u64,
    ) -> Result<(), AccessError> {
        let plain = |mem: &mut [u8]| -> Result<(), AccessError> {
            // Access sizes are powers of two.
            if addr & (u64::from(n) - 1) != 0 {
                return Err(AccessError::Misaligned);
            }
            let off = usize::try_from(addr).map_err(|_| AccessError::Unmapped)?;
            write_plain(mem, off, n as usize, v).ok_or(AccessError::Unmapped)
        };
        match store {
            Store::Global => {
                let (i, off) = self.global_locate(addr, n)?;
                self.global.store(i, off, n, v);
                Ok(())
            }
            Store::Shared => plain(shared),
            Store::Local => match w.local.get_mut(l) {
                Some(m) => plain(m),
                None => Err(AccessError::Unmapped),
            },
            Store::Const | Store::KParam => Err(AccessError::ReadOnly),
        }
    }

    /// Emits memory events for the lanes of `exec`, split by storage when generic
    /// addressing mixed spaces.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn emit_mem(
        &mut self,
        w: &Warp,
        pc: u32,
        stores: &[Store; 32],
        exec: u32,
        kind: AccessKind,
        size: u32,
        generic: bool,
    ) {
        let code = &self.prog.funcs[w.func as usize];
        let meta = code.meta[pc as usize];
        let mut left = exec;
        while left != 0 {
            let first = left.trailing_zeros() as usize;
            let st = stores[first];
            let mut m = 0u32;
            for l in lanes(left) {
                if stores[l] == st {
                    m |= 1 << l;
                }
            }
            left &= !m;
            let acc = MemoryAccess {
                func: code.func,
                inst: meta.inst,
                space: st.space(),
                kind,
                size,
                addrs: &self.addrs,
                active: m,
                generic,
            };
            self.obs.memory(&w.info, &acc);
        }
    }

    /// The cached global region of op `pc` if it holds `first`, refreshed otherwise:
    /// (base, size, words), or None when `first` is not in a global allocation.
    #[inline(always)]
    pub(super) fn region_for(
        &mut self,
        pc: u32,
        first: u64,
        n: u32,
    ) -> Option<(u64, u64, &'a [std::sync::atomic::AtomicU32])> {
        let slot = (pc & 15) as usize;
        let e = self.pcache[slot];
        if first.wrapping_sub(e.0) < e.1 {
            return Some(e);
        }
        self.global_locate(first, n).ok()?;
        let e = (self.rcache.0, self.rcache.1, self.fc_words);
        self.pcache[slot] = e;
        Some(e)
    }

    /// The fast paths' common start: the cached region of op `pc` holding the first active
    /// lane's address `addrs[lane] + off`, and every active lane's byte offset in it (see
    /// [`Env::offsets`]); None when some lane falls outside it or is misaligned for `n` bytes.
    #[inline(always)]
    pub(super) fn region_offsets(
        &mut self,
        addrs: &[u64; 32],
        pc: u32,
        exec: u32,
        off: i64,
        n: u32,
    ) -> Option<([u64; 32], &'a [std::sync::atomic::AtomicU32])> {
        let first = addrs[exec.trailing_zeros() as usize].wrapping_add(off as u64);
        let (base, size, words) = self.region_for(pc, first, n)?;
        let n = u64::from(n);
        if size < n {
            return None;
        }
        let offs = Self::offsets(addrs, off as u64, base, size - n, n, exec)?;
        Some((offs, words))
    }

    /// Byte offsets of every lane's address in region `base`, inactive lanes 0; None when a
    /// lane is outside `[0, lim]` or misaligned for `n` bytes. (`lim` < 2^62, so offsets
    /// that wrapped below 0 are negative as `i64`: signed compares suffice.)
    #[inline(always)]
    pub(super) fn offsets(
        addrs: &[u64; 32],
        off: u64,
        base: u64,
        lim: u64,
        n: u64,
        exec: u32,
    ) -> Option<[u64; 32]> {
        let mut offs = [0u64; 32];
        let mut bad = 0u64;
        let amask = n - 1;
        if exec == u32::MAX {
            for l in 0..32 {
                let o = addrs[l].wrapping_add(off).wrapping_sub(base);
                offs[l] = o;
                bad |= (o & amask) | u64::from(o > lim);
            }
        } else {
            for l in 0..32 {
                let sel = u64::from((exec >> l) & 1).wrapping_neg();
                let o = addrs[l].wrapping_add(off).wrapping_sub(base) & sel;
                offs[l] = o;
                bad |= (o & amask) | u64::from(o > lim);
            }
        }
        (bad == 0).then_some(offs)
    }

    /// Global load of one element per lane, all lanes in one region and aligned. Returns
    /// false (having changed nothing but caches) when the slow path must run.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn fast_ld(
        &mut self,
        w: &mut Warp,
        rb: usize,
        pc: u32,
        exec: u32,
        r: R,
        off: i64,
        fmt: LoadFmt,
        d: R,
    ) -> bool {
        let n = u32::from(fmt.size);
        let Some((offs, words)) = self.region_offsets(&w.regs[rb + r as usize], pc, exec, off, n)
        else {
            return false;
        };
        // SAFETY (all `get_unchecked` below): every offset o satisfies o <= size - n, so the
        // words holding bytes [o, o + n) exist: `words` covers ceil(size / 4) words.
        let word =
            |i: u64| unsafe { u64::from(words.get_unchecked(i as usize).load(Ordering::Relaxed)) };
        if exec == u32::MAX && d != NONE && !fmt.signed && (n == 4 || n == 8) {
            // Common case: write straight into the register (no blend, no temporary).
            let dst = &mut w.regs[rb + d as usize];
            if n == 4 {
                for l in 0..32 {
                    dst[l] = word(offs[l] >> 2);
                }
            } else {
                for l in 0..32 {
                    let i = offs[l] >> 2;
                    dst[l] = word(i) | (word(i + 1) << 32);
                }
            }
            return true;
        }
        let mut out = [0u64; 32];
        match n {
            4 => {
                for l in 0..32 {
                    out[l] = word(offs[l] >> 2);
                }
            }
            8 => {
                for l in 0..32 {
                    let i = offs[l] >> 2;
                    out[l] = word(i) | (word(i + 1) << 32);
                }
            }
            2 => {
                for l in 0..32 {
                    let o = offs[l];
                    out[l] = (word(o >> 2) >> ((o & 3) * 8)) & 0xffff;
                }
            }
            _ => {
                for l in 0..32 {
                    let o = offs[l];
                    out[l] = (word(o >> 2) >> ((o & 3) * 8)) & 0xff;
                }
            }
        }
        if fmt.signed && n < 8 {
            for v in &mut out {
                *v = extend(fmt, *v);
            }
        }
        if d != NONE {
            wr(&mut w.regs[rb + d as usize], &out, exec);
        }
        true
    }

    /// Global store of one 4- or 8-byte element per lane (see [`Env::fast_ld`]).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn fast_st(
        &mut self,
        w: &Warp,
        rb: usize,
        pc: u32,
        exec: u32,
        r: R,
        off: i64,
        size: u8,
        s: R,
    ) -> bool {
        let n = u32::from(size);
        let Some((offs, words)) = self.region_offsets(&w.regs[rb + r as usize], pc, exec, off, n)
        else {
            return false;
        };
        let vals = &w.regs[rb + s as usize];
        for l in 0..32 {
            if exec >> l & 1 != 0 {
                let i = (offs[l] >> 2) as usize;
                let v = vals[l];
                // SAFETY: as in `fast_ld`.
                unsafe {
                    words.get_unchecked(i).store(v as u32, Ordering::Relaxed);
                    if n == 8 {
                        words
                            .get_unchecked(i + 1)
                            .store((v >> 32) as u32, Ordering::Relaxed);
                    }
                }
            }
        }
        true
    }

    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn exec_ld(
        &mut self,
        w: &mut Warp,
        shared: &mut [u8],
        pc: u32,
        exec: u32,
        space: Space,
        fmt: LoadFmt,
        vec: u8,
        d: &[R; 4],
        base: Base,
        off: i64,
    ) -> Result<(), Fault> {
        let rb = w.reg_base as usize;
        if !O::MEMORY
            && vec == 1
            && matches!(space, Space::Global | Space::Generic)
            && let Base::Reg(r) = base
            && self.fast_ld(w, rb, pc, exec, r, off, fmt, d[0])
        {
            return Ok(());
        }
        if !O::MEMORY
            && space == Space::Shared
            && let Base::Reg32(r) | Base::Reg(r) = base
            && fast_shared_ld(w, shared, rb, exec, r, off, fmt, vec, d)
        {
            return Ok(());
        }
        let n = u32::from(fmt.size);
        let total = n * u32::from(vec);
        let mut stores = [Store::Global; 32];
        let mut vals = [[0u64; 32]; 4];
        for l in lanes(exec) {
            let (st, sa) =
                self.lane_target(w, pc, l, space, base, off, AccessKind::Load, vec, total)?;
            stores[l] = st;
            self.addrs[l] = sa;
            for (k, slot) in vals.iter_mut().enumerate().take(usize::from(vec)) {
                let ea = sa.wrapping_add(u64::from(n) * k as u64);
                match self.load(w, shared, l, st, ea, n) {
                    Ok(v) => slot[l] = extend(fmt, v),
                    Err(e) => {
                        let k = self.access_fault(st, AccessKind::Load, ea, n, e, shared.len());
                        return Err(self.fault(w, pc, l as u32, k));
                    }
                }
            }
        }
        for k in 0..usize::from(vec) {
            if d[k] != NONE {
                wr(&mut w.regs[rb + d[k] as usize], &vals[k], exec);
            }
        }
        if O::MEMORY {
            self.emit_mem(
                w,
                pc,
                &stores,
                exec,
                AccessKind::Load,
                total,
                space == Space::Generic,
            );
        }
        Ok(())
    }

    /// Lane `l`'s address `base + off` resolved in `space`: its storage and the address
    /// there, or a fault when it is in no space or, for a vector access of `total` bytes,
    /// misaligned.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn lane_target(
        &mut self,
        w: &Warp,
        pc: u32,
        l: usize,
        space: Space,
        base: Base,
        off: i64,
        kind: AccessKind,
        vec: u8,
        total: u32,
    ) -> Result<(Store, u64), Fault> {
        let rb = w.reg_base as usize;
        let a = match base {
            Base::Reg(r) => w.regs[rb + r as usize][l].wrapping_add(off as u64),
            Base::Reg32(r) => zx(w.regs[rb + r as usize][l].wrapping_add(off as u64), 32),
            Base::Frame => u64::from(w.local_base).wrapping_add(off as u64),
        };
        let (st, sa) = match self.resolve(space, base == Base::Frame, a) {
            Ok(x) => x,
            Err(k) => return Err(self.fault(w, pc, l as u32, k)),
        };
        if vec > 1 && !sa.is_multiple_of(u64::from(total)) {
            let k = FaultKind::Misaligned {
                space: st.space(),
                kind,
                addr: sa,
                size: total,
            };
            return Err(self.fault(w, pc, l as u32, k));
        }
        Ok((st, sa))
    }

    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    pub(super) fn exec_st(
        &mut self,
        w: &mut Warp,
        shared: &mut [u8],
        pc: u32,
        exec: u32,
        space: Space,
        size: u8,
        vec: u8,
        s: &[R; 4],
        base: Base,
        off: i64,
    ) -> Result<(), Fault> {
        let rb = w.reg_base as usize;
        if !O::MEMORY
            && vec == 1
            && matches!(size, 4 | 8)
            && matches!(space, Space::Global | Space::Generic)
            && let Base::Reg(r) = base
            && s[0] != NONE
            && self.fast_st(w, rb, pc, exec, r, off, size, s[0])
        {
            return Ok(());
        }
        if !O::MEMORY
            && space == Space::Shared
            && let Base::Reg32(r) | Base::Reg(r) = base
            && fast_shared_st(w, shared, rb, exec, r, off, size, vec, s)
        {
            return Ok(());
        }
        let n = u32::from(size);
        let total = n * u32::from(vec);
        let mut stores = [Store::Global; 32];
        for l in lanes(exec) {
            let (st, sa) =
                self.lane_target(w, pc, l, space, base, off, AccessKind::Store, vec, total)?;
            stores[l] = st;
            self.addrs[l] = sa;
            for (k, &src) in s.iter().enumerate().take(usize::from(vec)) {
                if src == NONE {
                    continue;
                }
                let v = w.regs[rb + src as usize][l];
                let ea = sa.wrapping_add(u64::from(n) * k as u64);
                if let Err(e) = self.store(w, shared, l, st, ea, n, v) {
                    let k = self.access_fault(st, AccessKind::Store, ea, n, e, shared.len());
                    return Err(self.fault(w, pc, l as u32, k));
                }
            }
        }
        if O::MEMORY {
            self.emit_mem(
                w,
                pc,
                &stores,
                exec,
                AccessKind::Store,
                total,
                space == Space::Generic,
            );
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn exec_cp_async(
        &mut self,
        w: &mut Warp,
        shared: &mut [u8],
        pc: u32,
        exec: u32,
        dst: Base,
        dst_off: i64,
        src: Base,
        src_off: i64,
        size: u8,
        src_size: R,
        ignore: P,
        ignore_neg: bool,
    ) -> Result<(), Fault> {
        let rb = w.reg_base as usize;
        let pb = w.pred_base as usize;
        let n = u32::from(size);
        let addr = |w: &Warp, b: Base, off: i64, l: usize| match b {
            Base::Reg(r) => w.regs[rb + r as usize][l].wrapping_add(off as u64),
            Base::Reg32(r) => zx(w.regs[rb + r as usize][l].wrapping_add(off as u64), 32),
            Base::Frame => u64::from(w.local_base).wrapping_add(off as u64),
        };
        let ign = if ignore == NONE {
            0
        } else {
            rd_pred(&w.preds[pb..], ignore, ignore_neg)
        };
        let mut saddrs = [0u64; 32];
        let mut daddrs = [0u64; 32];
        for l in lanes(exec) {
            let sa = addr(w, src, src_off, l);
            let da = addr(w, dst, dst_off, l);
            saddrs[l] = sa;
            daddrs[l] = da;
            let want = if ign >> l & 1 == 1 {
                0
            } else if src_size == NONE {
                n
            } else {
                (w.regs[rb + src_size as usize][l] as u32).min(n)
            };
            if !da.is_multiple_of(u64::from(n)) || !sa.is_multiple_of(u64::from(n)) {
                let (space, a) = if !da.is_multiple_of(u64::from(n)) {
                    (MemSpace::Shared, da)
                } else {
                    (MemSpace::Global, sa)
                };
                let k = FaultKind::Misaligned {
                    space,
                    kind: AccessKind::Load,
                    addr: a,
                    size: n,
                };
                return Err(self.fault(w, pc, l as u32, k));
            }
            let mut bytes = [0u8; 16];
            for (k, byte) in bytes.iter_mut().enumerate().take(want as usize) {
                let a = sa.wrapping_add(k as u64);
                match self.load(w, shared, l, Store::Global, a, 1) {
                    Ok(v) => *byte = v as u8,
                    Err(e) => {
                        let k = self.access_fault(
                            Store::Global,
                            AccessKind::Load,
                            a,
                            1,
                            e,
                            shared.len(),
                        );
                        return Err(self.fault(w, pc, l as u32, k));
                    }
                }
            }
            let off = usize::try_from(da).unwrap_or(usize::MAX);
            match shared.get_mut(off..off.saturating_add(n as usize)) {
                Some(s) => s.copy_from_slice(&bytes[..n as usize]),
                None => {
                    let k = self.access_fault(
                        Store::Shared,
                        AccessKind::Store,
                        da,
                        n,
                        AccessError::Unmapped,
                        shared.len(),
                    );
                    return Err(self.fault(w, pc, l as u32, k));
                }
            }
        }
        if O::MEMORY {
            let code = &self.prog.funcs[w.func as usize];
            let meta = code.meta[pc as usize];
            for (space, kind, addrs) in [
                (MemSpace::Global, AccessKind::Load, &saddrs),
                (MemSpace::Shared, AccessKind::Store, &daddrs),
            ] {
                let acc = MemoryAccess {
                    func: code.func,
                    inst: meta.inst,
                    space,
                    kind,
                    size: n,
                    addrs,
                    active: exec,
                    generic: false,
                };
                self.obs.memory(&w.info, &acc);
            }
        }
        Ok(())
    }

    /// `Op::LocalAddr`.
    #[inline(always)]
    pub(super) fn local_addr(&mut self, w: &mut Warp, rb: usize, exec: u32, d: R, off: u32) {
        let v = u64::from(w.local_base) + u64::from(off);
        wr(&mut w.regs[rb + d as usize], &[v; 32], exec);
    }

    /// `Op::Cvta`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn cvta(
        &mut self,
        w: &mut Warp,
        rb: usize,
        exec: u32,
        d: R,
        a: R,
        to_generic: bool,
        space: Space,
        narrow: bool,
    ) {
        let win = match space {
            Space::Local => LOCAL_WINDOW,
            Space::Shared => SHARED_WINDOW,
            Space::Const => CONST_WINDOW,
            Space::Param => PARAM_WINDOW,
            _ => 0,
        };
        let (tg, nr) = (to_generic, narrow);
        un_lanes(&mut w.regs[rb..], d, a, exec, |x| {
            if tg {
                let x = if nr { zx(x, 32) } else { x };
                x.wrapping_add(win)
            } else {
                let v = x.wrapping_sub(win);
                if nr { zx(v, 32) } else { v }
            }
        });
    }

    /// `Op::Isspacep`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn isspacep(
        &mut self,
        w: &mut Warp,
        rb: usize,
        pb: usize,
        exec: u32,
        p: P,
        a: R,
        space: Space,
    ) {
        let t = test_lanes(&w.regs[rb..], a, |v| {
            matches!(
                (space, window_of(v)),
                (Space::Global, Window::Global(_))
                    | (Space::Shared, Window::Shared(_))
                    | (Space::Local, Window::Local(_))
                    | (Space::Const, Window::Const(_))
                    | (Space::Param, Window::Param(_))
            )
        });
        wr_pred(&mut w.preds[pb..], p, t, exec);
    }

    /// `Op::LdParam`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn ld_param(
        &mut self,
        w: &mut Warp,
        code: &FuncCode,
        pc: u32,
        rb: usize,
        exec: u32,
        fmt: LoadFmt,
        vec: u8,
        d: [R; 4],
        off: u32,
    ) -> Result<(), Fault> {
        if exec != 0 {
            for k in 0..usize::from(vec) {
                let o = off as usize + k * usize::from(fmt.size);
                let Some(v) = read_plain(self.params, o, usize::from(fmt.size)) else {
                    let lane = exec.trailing_zeros();
                    return Err(self.fault(
                        w,
                        pc,
                        lane,
                        FaultKind::OutOfBounds {
                            space: MemSpace::Param,
                            kind: AccessKind::Load,
                            addr: o as u64,
                            size: u32::from(fmt.size),
                            detail: self.oob_detail(
                                Store::KParam,
                                o as u64,
                                u32::from(fmt.size),
                                0,
                            ),
                        },
                    ));
                };
                let v = extend(fmt, v);
                if d[k] != NONE {
                    wr(&mut w.regs[rb + d[k] as usize], &[v; 32], exec);
                }
            }
            if O::MEMORY {
                // Parameter loads are uniform; report them like other loads.
                let code_meta = code.meta[pc as usize];
                self.addrs = [u64::from(off); 32];
                let acc = MemoryAccess {
                    func: code.func,
                    inst: code_meta.inst,
                    space: MemSpace::Param,
                    kind: AccessKind::Load,
                    size: u32::from(fmt.size) * u32::from(vec),
                    addrs: &self.addrs,
                    active: exec,
                    generic: false,
                };
                self.obs.memory(&w.info, &acc);
            }
        }
        Ok(())
    }
}
