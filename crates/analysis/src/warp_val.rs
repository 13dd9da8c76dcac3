//! The value of an expression for the 32 lanes of a warp ([`WarpVal`]): a polynomial in
//! uniform symbols whose coefficients are per-lane ([`Coef`]), with the lanes whose value is
//! not expressible marked. [`crate::eval`] computes them; this module holds their arithmetic.

use crate::symbols::Symbols;
use smallvec::SmallVec;

/// Per-lane integer values.
pub type Lanes = [i64; 32];

/// One coefficient of a [`WarpVal`]: one value shared by every lane, or one per lane.
///
/// Most coefficients are shared (constants, strides, the factors of uniform symbols), so a
/// value keeps a lane vector only where lanes differ, behind a counted pointer: copying a
/// value copies no lane vector, and a value with no per-lane coefficient allocates nothing
/// (docs/performance.md, "Compact warp values").
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Coef {
    /// The same on every lane.
    Same(i64),
    /// Per lane; never all equal (that is `Same`).
    Lanes(std::rc::Rc<Lanes>),
}

impl Coef {
    /// The coefficient with these lane values (`Same` when they are all equal).
    pub fn from_lanes(l: Lanes) -> Coef {
        if l.iter().all(|&v| v == l[0]) {
            Coef::Same(l[0])
        } else {
            Coef::Lanes(std::rc::Rc::new(l))
        }
    }

    /// Lane `k`'s value.
    #[inline]
    pub fn get(&self, k: usize) -> i64 {
        match self {
            Coef::Same(c) => *c,
            Coef::Lanes(l) => l[k],
        }
    }

    /// The lane values.
    pub fn lanes(&self) -> Lanes {
        match self {
            Coef::Same(c) => [*c; 32],
            Coef::Lanes(l) => **l,
        }
    }

    pub fn is_zero(&self) -> bool {
        matches!(self, Coef::Same(0))
    }

    /// Lanes whose value is not 0.
    pub(crate) fn nonzero_mask(&self) -> u32 {
        match self {
            Coef::Same(0) => 0,
            Coef::Same(_) => u32::MAX,
            Coef::Lanes(l) => {
                let mut m = 0;
                for (k, v) in l.iter().enumerate() {
                    if *v != 0 {
                        m |= 1 << k;
                    }
                }
                m
            }
        }
    }

    /// Whether every lane of `valid` holds the same value.
    fn same_on(&self, valid: u32) -> bool {
        match self {
            Coef::Same(_) => true,
            Coef::Lanes(l) => {
                let Some(first) = (0..32).find(|k| valid & (1 << k) != 0) else {
                    return true;
                };
                (0..32).all(|k| valid & (1 << k) == 0 || l[k] == l[first])
            }
        }
    }

    /// `f` lane by lane.
    #[inline]
    fn map(&self, f: impl Fn(i64) -> i64) -> Coef {
        match self {
            Coef::Same(c) => Coef::Same(f(*c)),
            Coef::Lanes(l) => Coef::from_lanes(l.map(f)),
        }
    }

    /// `f` lane by lane on two coefficients.
    #[inline]
    fn zip(&self, o: &Coef, f: impl Fn(i64, i64) -> i64) -> Coef {
        match (self, o) {
            (Coef::Same(a), Coef::Same(b)) => Coef::Same(f(*a, *b)),
            _ => {
                let mut l = ZERO;
                for (k, v) in l.iter_mut().enumerate() {
                    *v = f(self.get(k), o.get(k));
                }
                Coef::from_lanes(l)
            }
        }
    }

    /// Lane `k` from `self` where `mask` has bit `k`, else from `o`.
    fn blend(mask: u32, a: &Coef, b: &Coef) -> Coef {
        if mask == u32::MAX || a == b {
            return a.clone();
        }
        if mask == 0 {
            return b.clone();
        }
        let mut l = ZERO;
        for (k, v) in l.iter_mut().enumerate() {
            *v = if mask & (1 << k) != 0 {
                a.get(k)
            } else {
                b.get(k)
            };
        }
        Coef::from_lanes(l)
    }
}

const SAME_ZERO: Coef = Coef::Same(0);

/// The most terms a product keeps (beyond it, [`WarpVal::mul_unexpanded`]).
const MAX_TERMS: usize = 64;
/// The most term pairs a product multiplies out.
const MAX_PRODUCT_PAIRS: usize = 1024;

/// A value for the 32 lanes of a warp.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Default)]
pub struct WarpVal {
    /// (monomial, coefficient), sorted by monomial, no zero coefficient.
    pub terms: SmallVec<[(u32, Coef); 3]>,
    /// Lanes whose value depends on data.
    pub unknown: u32,
    /// Lanes whose value depends on a uniform unknown non-polynomially.
    pub opaque: u32,
}

pub(crate) const ZERO: Lanes = [0; 32];

impl WarpVal {
    pub fn konst(c: i64) -> WarpVal {
        let mut v = WarpVal::default();
        if c != 0 {
            v.terms.push((0, Coef::Same(c)));
        }
        v
    }

    pub fn lanes(l: Lanes) -> WarpVal {
        let mut v = WarpVal::default();
        let c = Coef::from_lanes(l);
        if !c.is_zero() {
            v.terms.push((0, c));
        }
        v
    }

    pub fn sym(m: u32) -> WarpVal {
        let mut v = WarpVal::default();
        v.terms.push((m, Coef::Same(1)));
        v
    }

    pub fn unknown_all() -> WarpVal {
        WarpVal {
            terms: SmallVec::new(),
            unknown: u32::MAX,
            opaque: 0,
        }
    }

    /// Bits of lanes whose value is not expressible.
    pub fn bad(&self) -> u32 {
        self.unknown | self.opaque
    }

    fn coeff(&self, m: u32) -> Option<&Coef> {
        self.terms.iter().find(|(x, _)| *x == m).map(|(_, l)| l)
    }

    /// The constant part per lane.
    pub fn const_part(&self) -> Lanes {
        self.coeff(0).map_or(ZERO, Coef::lanes)
    }

    /// Lane `k`'s value when it is a plain integer.
    pub fn lane_const(&self, k: usize) -> Option<i64> {
        if self.bad() & (1 << k) != 0 {
            return None;
        }
        let mut c = 0;
        for (m, l) in &self.terms {
            if *m == 0 {
                c = l.get(k);
            } else if l.get(k) != 0 {
                return None;
            }
        }
        Some(c)
    }

    /// Every lane's constant term (0 where there is none): lane `k`'s value wherever
    /// [`WarpVal::concrete_mask`] has `k` (what [`WarpVal::lane_const`] gives there, for all
    /// lanes in one pass).
    pub fn const_lanes(&self) -> Lanes {
        match self.terms.first() {
            Some((0, c)) => c.lanes(),
            _ => ZERO,
        }
    }

    /// Lanes (within `valid`) holding plain integers.
    pub fn concrete_mask(&self, valid: u32) -> u32 {
        let mut m = valid & !self.bad();
        for (mono, l) in &self.terms {
            if *mono != 0 {
                m &= !l.nonzero_mask();
            }
        }
        m
    }

    /// Whether every lane in `valid` has the same value (same symbolic form) and none is
    /// unknown or opaque.
    pub fn is_uniform(&self, valid: u32) -> bool {
        if self.bad() & valid != 0 {
            return false;
        }
        self.terms.iter().all(|(_, l)| l.same_on(valid))
    }

    /// Whether the value is a plain integer on every lane of `valid`.
    pub fn is_concrete(&self, valid: u32) -> bool {
        self.concrete_mask(valid) == valid
    }

    /// Splits into a per-lane constant part and a lane-uniform symbolic part
    /// (`(monomial, coefficient)`); `None` when some symbolic coefficient differs between
    /// lanes of `valid` or a lane is unknown/opaque.
    pub fn split(&self, valid: u32) -> Option<(Lanes, Vec<(u32, i64)>)> {
        if self.bad() & valid != 0 {
            return None;
        }
        let first = (0..32).find(|k| valid & (1 << k) != 0)?;
        let mut sym = Vec::new();
        for (m, l) in &self.terms {
            if *m == 0 {
                continue;
            }
            if !l.same_on(valid) {
                return None;
            }
            let c = l.get(first);
            if c != 0 {
                sym.push((*m, c));
            }
        }
        Some((self.const_part(), sym))
    }

    fn normalize(&mut self) {
        self.terms.retain(|(_, l)| !l.is_zero());
        self.terms.sort_by_key(|(m, _)| *m);
    }

    /// `self ⊕ o` term by term, where a monomial missing on one side counts as 0.
    fn combine(&self, o: &WarpVal, f: impl Fn(i64, i64) -> i64 + Copy) -> WarpVal {
        let mut r = WarpVal {
            terms: SmallVec::new(),
            unknown: self.unknown | o.unknown,
            opaque: self.opaque | o.opaque,
        };
        // Both sides are sorted by monomial: merge them.
        let (a, b) = (&self.terms, &o.terms);
        let (mut i, mut j) = (0, 0);
        while i < a.len() || j < b.len() {
            let (m, c) = match (a.get(i), b.get(j)) {
                (Some((ma, ca)), Some((mb, cb))) if ma == mb => {
                    i += 1;
                    j += 1;
                    (*ma, ca.zip(cb, f))
                }
                (Some((ma, ca)), Some((mb, _))) if ma < mb => {
                    i += 1;
                    (*ma, ca.zip(&SAME_ZERO, f))
                }
                (Some((ma, ca)), None) => {
                    i += 1;
                    (*ma, ca.zip(&SAME_ZERO, f))
                }
                (_, Some((mb, cb))) => {
                    j += 1;
                    (*mb, SAME_ZERO.zip(cb, f))
                }
                (None, None) => break,
            };
            if !c.is_zero() {
                r.terms.push((m, c));
            }
        }
        r
    }

    pub fn add(&self, o: &WarpVal) -> WarpVal {
        self.combine(o, i64::wrapping_add)
    }

    pub fn neg(&self) -> WarpVal {
        let mut r = self.clone();
        for (_, l) in r.terms.iter_mut() {
            *l = l.map(i64::wrapping_neg);
        }
        r
    }

    pub fn sub(&self, o: &WarpVal) -> WarpVal {
        self.combine(o, i64::wrapping_sub)
    }

    /// Lanes (within `valid`) where the value is known to be 0: no term is nonzero there.
    pub fn zero_mask(&self, valid: u32) -> u32 {
        let mut m = valid & !self.bad();
        for (_, l) in &self.terms {
            m &= !l.nonzero_mask();
        }
        m
    }

    pub fn mul(&self, o: &WarpVal, syms: &mut Symbols) -> WarpVal {
        if self.terms.len() * o.terms.len() > MAX_PRODUCT_PAIRS {
            return self.mul_unexpanded(o);
        }
        let mut r = WarpVal {
            terms: SmallVec::new(),
            unknown: self.unknown | o.unknown,
            opaque: self.opaque | o.opaque,
        };
        for (ma, la) in &self.terms {
            for (mb, lb) in &o.terms {
                let m = syms.mono_mul(*ma, *mb);
                let l = la.zip(lb, i64::wrapping_mul);
                match r.terms.iter_mut().find(|(x, _)| *x == m) {
                    Some((_, rl)) => *rl = rl.zip(&l, i64::wrapping_add),
                    None => r.terms.push((m, l)),
                }
            }
        }
        // 0 times anything is 0.
        let z = self.zero_mask(u32::MAX) | o.zero_mask(u32::MAX);
        if z != 0 {
            r.unknown &= !z;
            r.opaque &= !z;
            for (_, l) in r.terms.iter_mut() {
                *l = Coef::blend(z, &SAME_ZERO, l);
            }
        }
        r.normalize();
        if r.terms.len() > MAX_TERMS {
            return self.mul_unexpanded(o);
        }
        r
    }

    /// The product without expanding it: lanes where both sides are plain integers (or
    /// either is 0) keep their value; the others lose their form, as `opaque` when both
    /// sides are lane-uniform (the product is too) and `unknown` otherwise. Chains of
    /// `and`/`or` over symbolic predicates multiply out to exponentially many terms
    /// (`x·y`, `x + y − x·y`, …); this bounds the size of every value instead.
    fn mul_unexpanded(&self, o: &WarpVal) -> WarpVal {
        let z = self.zero_mask(u32::MAX) | o.zero_mask(u32::MAX);
        let both = self.concrete_mask(u32::MAX) & o.concrete_mask(u32::MAX) & !z;
        let mut l = ZERO;
        for (k, v) in l.iter_mut().enumerate() {
            if both & (1 << k) != 0 {
                let (a, b) = (self.lane_const(k), o.lane_const(k));
                *v = a.unwrap_or(0).wrapping_mul(b.unwrap_or(0));
            }
        }
        let mut r = WarpVal::lanes(l);
        let rest = !(both | z);
        if self.is_uniform(u32::MAX) && o.is_uniform(u32::MAX) {
            r.opaque = rest;
        } else {
            r.unknown = rest & (self.unknown | o.unknown | !(self.opaque | o.opaque));
            r.opaque = rest & !r.unknown;
        }
        r
    }

    /// Lane `k` from `x` where `mask` has bit `k`, else from `y`.
    pub fn blend(mask: u32, x: &WarpVal, y: &WarpVal) -> WarpVal {
        let mut r = WarpVal {
            terms: SmallVec::new(),
            unknown: (x.unknown & mask) | (y.unknown & !mask),
            opaque: (x.opaque & mask) | (y.opaque & !mask),
        };
        let mut monos: SmallVec<[u32; 6]> =
            x.terms.iter().chain(y.terms.iter()).map(|t| t.0).collect();
        monos.sort_unstable();
        monos.dedup();
        for m in monos {
            let a = x.coeff(m).unwrap_or(&SAME_ZERO);
            let b = y.coeff(m).unwrap_or(&SAME_ZERO);
            let c = Coef::blend(mask, a, b);
            if !c.is_zero() {
                r.terms.push((m, c));
            }
        }
        r
    }

    /// Whether lane `k` has the same value in `self` and `o`.
    pub(crate) fn lane_eq(&self, o: &WarpVal, k: usize) -> bool {
        if (self.bad() | o.bad()) & (1 << k) != 0 {
            return false;
        }
        let get = |v: &WarpVal, m: u32| v.coeff(m).map_or(0, |l| l.get(k));
        self.terms
            .iter()
            .chain(o.terms.iter())
            .all(|(m, _)| get(self, *m) == get(o, *m))
    }
}

#[cfg(test)]
mod tests {
    //! [`WarpVal`]'s arithmetic against lane-by-lane arithmetic on the same polynomials with
    //! the symbols given values, and the canonical form its equality and hashing rely on.
    use super::*;
    use crate::expr::Atom;
    use crate::symbols::{Sym, SymInfo};
    use proptest::prelude::*;

    /// Three symbols `s0..s2` and their monomials `1, s0, s1, s0·s1`.
    fn symbols() -> (Symbols, [u32; 4]) {
        let mut syms = Symbols::default();
        let ids: Vec<u32> = (0..3)
            .map(|i| syms.sym(Sym::Atom(Atom::Uniform(i)), SymInfo::ANY))
            .collect();
        let m0 = syms.mono(SmallVec::from_slice(&[ids[0]]));
        let m1 = syms.mono(SmallVec::from_slice(&[ids[1]]));
        let m01 = syms.mono(SmallVec::from_slice(&[ids[0], ids[1]]));
        (syms, [0, m0, m1, m01])
    }

    /// A sum of `n` distinct symbols, coefficient 1 on lanes 0..16 and `k` on lane `k` above,
    /// plain `7` on lanes where `concrete` has a bit.
    fn wide(syms: &mut Symbols, base: u32, n: u32, concrete: u32) -> WarpVal {
        let mut v = WarpVal::default();
        for i in 0..n {
            let id = syms.sym(Sym::Atom(Atom::Uniform(base + i)), SymInfo::ANY);
            let m = syms.mono(SmallVec::from_slice(&[id]));
            let l: Lanes = std::array::from_fn(|k| {
                if concrete & (1 << k) != 0 {
                    0
                } else {
                    (k as i64).max(1)
                }
            });
            v = v.add(&WarpVal {
                terms: SmallVec::from_elem((m, Coef::from_lanes(l)), 1),
                ..WarpVal::default()
            });
        }
        let c: Lanes = std::array::from_fn(|k| if concrete & (1 << k) != 0 { 7 } else { 0 });
        v.add(&WarpVal::lanes(c))
    }

    /// Chains of `and`/`or` over symbolic predicates multiply out exponentially (issue 10:
    /// a 988-line eigenvalue module gave no answer in 60 s, every second in `mul`). A product
    /// past the bound keeps its plain lanes and gives the others up: unknown where the
    /// sides vary between lanes, opaque where both are lane-uniform.
    #[test]
    fn products_past_the_bound_keep_plain_lanes_and_give_up_the_rest() {
        let mut syms = Symbols::default();
        let plain = 0x0000_00ff;
        let x = wide(&mut syms, 0, 40, plain);
        let y = wide(&mut syms, 100, 40, plain);
        let p = x.mul(&y, &mut syms);
        assert!(p.terms.len() <= MAX_TERMS);
        for k in 0..8 {
            assert_eq!(p.lane_const(k), Some(49), "lane {k}");
        }
        assert_eq!(p.unknown, !plain, "lane-varying sides: unknown");
        // Zero on one side stays zero.
        let z = WarpVal::konst(0);
        assert_eq!(x.mul(&z, &mut syms).lane_const(20), Some(0));
        // Lane-uniform sides past the bound: opaque (uniform), not data.
        let mut u = WarpVal::default();
        let mut w = WarpVal::default();
        for i in 0..40 {
            let a = syms.sym(Sym::Atom(Atom::Uniform(200 + i)), SymInfo::ANY);
            let b = syms.sym(Sym::Atom(Atom::Uniform(300 + i)), SymInfo::ANY);
            u = u.add(&WarpVal::sym(syms.mono(SmallVec::from_slice(&[a]))));
            w = w.add(&WarpVal::sym(syms.mono(SmallVec::from_slice(&[b]))));
        }
        let q = u.mul(&w, &mut syms);
        assert_eq!((q.opaque, q.unknown), (u32::MAX, 0));
        // Small products are exact as before.
        let s = wide(&mut syms, 400, 3, plain).mul(&wide(&mut syms, 500, 3, plain), &mut syms);
        assert_eq!((s.unknown, s.opaque), (0, 0));
        assert_eq!(s.terms.len(), 1 + 9);
    }

    /// A coefficient: the same on every lane, or one of a few lane patterns (small values, so
    /// products stay exact).
    fn coef() -> impl Strategy<Value = Lanes> {
        prop_oneof![
            (-3i64..4).prop_map(|c| [c; 32]),
            (-3i64..4, -2i64..3).prop_map(|(a, b)| std::array::from_fn(|k| a + b * k as i64)),
            prop::array::uniform32(-2i64..3),
        ]
    }

    /// A value: a coefficient for each of up to four monomials, and unknown/opaque lanes.
    fn warp_val() -> impl Strategy<Value = (Vec<(usize, Lanes)>, u32, u32)> {
        (
            prop::collection::vec((0usize..4, coef()), 0..4),
            prop_oneof![Just(0u32), any::<u32>()],
            prop_oneof![Just(0u32), any::<u32>()],
        )
    }

    fn build(
        monos: &[u32; 4],
        (terms, unknown, opaque): &(Vec<(usize, Lanes)>, u32, u32),
    ) -> WarpVal {
        let mut v = WarpVal::default();
        for (m, l) in terms {
            let mut t = WarpVal::default();
            let c = Coef::from_lanes(*l);
            if !c.is_zero() {
                t.terms.push((monos[*m], c));
            }
            v = v.add(&t);
        }
        v.unknown = *unknown;
        v.opaque = *opaque & !*unknown;
        v
    }

    /// Lane `k`'s value with the symbols valued `vals` (None on an unknown/opaque lane).
    fn value(v: &WarpVal, syms: &Symbols, vals: [i64; 3], k: usize) -> Option<i64> {
        if v.bad() & (1 << k) != 0 {
            return None;
        }
        let mut sum = 0i64;
        for (m, c) in &v.terms {
            let mut p = c.get(k);
            for &s in syms.factors(*m) {
                p = p.wrapping_mul(vals[s as usize]);
            }
            sum = sum.wrapping_add(p);
        }
        Some(sum)
    }

    fn canonical(v: &WarpVal) -> bool {
        v.terms.windows(2).all(|w| w[0].0 < w[1].0)
            && v.terms.iter().all(|(_, c)| match c {
                Coef::Same(x) => *x != 0,
                Coef::Lanes(l) => l.iter().any(|&x| x != l[0]),
            })
    }

    proptest! {
        #[test]
        fn arithmetic_matches_lane_by_lane(
            a in warp_val(),
            b in warp_val(),
            mask in any::<u32>(),
            vals in prop::array::uniform3(-5i64..6),
        ) {
            let (mut syms, monos) = symbols();
            let (x, y) = (build(&monos, &a), build(&monos, &b));
            let sum = x.add(&y);
            let diff = x.sub(&y);
            let neg = x.neg();
            let prod = x.mul(&y, &mut syms);
            let blend = WarpVal::blend(mask, &x, &y);
            for v in [&x, &y, &sum, &diff, &neg, &prod, &blend] {
                prop_assert!(canonical(v), "{v:?}");
            }
            for k in 0..32 {
                let (p, q) = (value(&x, &syms, vals, k), value(&y, &syms, vals, k));
                let both = p.zip(q);
                prop_assert_eq!(value(&sum, &syms, vals, k), both.map(|(p, q)| p + q));
                prop_assert_eq!(value(&diff, &syms, vals, k), both.map(|(p, q)| p - q));
                prop_assert_eq!(value(&neg, &syms, vals, k), p.map(|p| -p));
                // A lane known to be 0 on one side is 0 whatever the other.
                let zero = x.lane_const(k) == Some(0) || y.lane_const(k) == Some(0);
                let want = if zero { Some(0) } else { both.map(|(p, q)| p * q) };
                prop_assert_eq!(value(&prod, &syms, vals, k), want);
                let want = if mask & (1 << k) != 0 { p } else { q };
                prop_assert_eq!(value(&blend, &syms, vals, k), want);
            }
            // Equal values have one form: x + y − y is x.
            let mut back = sum.sub(&y);
            back.unknown = x.unknown;
            back.opaque = x.opaque;
            prop_assert_eq!(back, x.clone());
        }

        #[test]
        fn split_and_uniformity_read_the_lanes(a in warp_val(), valid in any::<u32>()) {
            let (syms, monos) = symbols();
            let x = build(&monos, &a);
            let uniform = (0..32).filter(|k| valid & (1 << k) != 0).all(|k| {
                x.bad() & (1 << k) == 0
                    && x.terms.iter().all(|(_, c)| {
                        let first = (0..32).find(|j| valid & (1 << j) != 0).unwrap();
                        c.get(k) == c.get(first)
                    })
            });
            prop_assert_eq!(x.is_uniform(valid), uniform);
            if let Some((c, part)) = x.split(valid) {
                for k in (0..32).filter(|k| valid & (1 << k) != 0) {
                    let mut v = c[k];
                    for &(m, co) in &part {
                        let mut p = co;
                        for &s in syms.factors(m) {
                            p *= [2i64, 3, 5][s as usize];
                        }
                        v += p;
                    }
                    prop_assert_eq!(Some(v), value(&x, &syms, [2, 3, 5], k));
                }
            }
            let concrete = (0..32).filter(|k| valid & (1 << k) != 0).fold(0u32, |m, k| {
                if x.lane_const(k).is_some() { m | 1 << k } else { m }
            });
            prop_assert_eq!(x.concrete_mask(valid), concrete);
            let zero = (0..32).filter(|k| valid & (1 << k) != 0).fold(0u32, |m, k| {
                if x.lane_const(k) == Some(0) { m | 1 << k } else { m }
            });
            prop_assert_eq!(x.zero_mask(valid), zero);
        }
    }
}
