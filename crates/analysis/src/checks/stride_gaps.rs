//! The unknown-stride test of accesses ([`Checker::unknown_stride_gaps`]): lanes a multiple
//! of one uniform unknown apart, tried at many values of it, and its answers kept by pattern
//! ([`StrideKey`]).

use super::*;

impl Checker<'_> {
    /// Whether the lanes of `lanes` sit at `c[k] + s[k]·m + u` with one uniform unknown `m` (a
    /// row length, a stride parameter, a size loaded once) times a lane-varying coefficient `s`
    /// and everything else shared by the warp (`u`), and every value of `m` tried but a few
    /// degenerate ones leaves more sectors than the request's bytes need even with every dense
    /// run aligned: the gaps do not depend on where the warp starts. Returns those degenerate
    /// values (`m` in -2..=2 that leave no gap: 0 and ±1 for `a[tid * m]`, -2, -1 and 0 for
    /// `a[tid * (m + 1)]`), or `None` when a larger value leaves none or the shape does not fit.
    /// PTX semantics fix the addresses given `m`; what the analysis assumes is only that `m` is
    /// none of the values returned.
    ///
    /// The answers are kept per kernel for lanes whose offsets are small enough that only
    /// their differences matter ([`StrideKey`]): the warps of a block, and the sites indexed
    /// alike, ask it of the same pattern moved along.
    pub(crate) fn unknown_stride_gaps(
        &mut self,
        addr: &WarpVal,
        lanes: u32,
        size: u32,
    ) -> Option<Vec<i64>> {
        let (coef, c0) = stride_shape(addr, lanes)?;
        let Some(key) = StrideKey::new(&coef, &c0, lanes, size) else {
            return stride_exceptions(&coef, &c0, lanes, size);
        };
        self.stride_gaps
            .entry(key)
            .or_insert_with(|| stride_exceptions(&coef, &c0, lanes, size))
            .clone()
    }
}

/// Values of the unknown tried by [`Checker::unknown_stride_gaps`]: every small one (where a narrow
/// row could fill a sector), then larger ones, both signs.
const UNKNOWN_STRIDES: [i64; 97] = {
    let big = [96, 100, 127, 128, 1000, 1024, 4097, 65536];
    let mut out = [0i64; 97];
    let mut i = 0;
    while i < 81 {
        out[i] = i as i64 - 40;
        i += 1;
    }
    let mut j = 0;
    while j < 8 {
        out[81 + 2 * j] = big[j];
        out[82 + 2 * j] = -big[j];
        j += 1;
    }
    out
};

/// The lanes of a [`stride_exceptions`] test relative to the first: the coefficients and the
/// constant offsets of the active lanes less the first lane's, its lanes and access size.
///
/// Moving every lane by the same amount changes no answer of the test while no offset it
/// computes leaves ±2^39 bytes: the offsets are then exact (no multiplication or sum
/// overflows) and placed at `2^40 + offset` by the cost model without wrapping, so their order
/// and differences, all that the sectors of aligned runs depend on, are the same. Moved by the
/// first lane's coefficient times the unknown and its constant, the lanes of two tests with
/// equal keys are one pattern at every value tried; [`StrideKey::new`] makes keys only where
/// both the given lanes and the moved ones stay within that bound.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct StrideKey {
    lanes: u32,
    size: u32,
    coef: Lanes,
    c0: Lanes,
}

impl StrideKey {
    /// Largest coefficient magnitude keyed: times the largest value tried (65,536 = 2^16),
    /// 2^35 at most, twice that once moved.
    const MAX_COEF: u64 = 1 << 19;
    /// Largest constant magnitude keyed: with the coefficient's share, under 2^38 moved.
    const MAX_CONST: u64 = 1 << 36;

    fn new(coef: &Lanes, c0: &Lanes, lanes: u32, size: u32) -> Option<StrideKey> {
        debug_assert!(UNKNOWN_STRIDES.iter().all(|v| v.abs() <= 1 << 16));
        let on = |k: usize| lanes & (1 << k) != 0;
        let small = (0..32).all(|k| {
            !on(k)
                || coef[k].unsigned_abs() <= Self::MAX_COEF
                    && c0[k].unsigned_abs() <= Self::MAX_CONST
        });
        if lanes == 0 || !small {
            return None;
        }
        let first = lanes.trailing_zeros() as usize;
        let moved = |l: &Lanes| -> Lanes {
            std::array::from_fn(|k| if on(k) { l[k] - l[first] } else { 0 })
        };
        Some(StrideKey {
            lanes,
            size,
            coef: moved(coef),
            c0: moved(c0),
        })
    }
}

/// The largest magnitude a value of the unknown that makes the request dense may have for
/// [`Checker::unknown_stride_gaps`] to call the gaps certain: a stride or row length of 0,
/// ±1 or ±2 is a degenerate case a finding can name; a larger one is a real configuration.
const MAX_STRIDE_EXCEPTION: i64 = 2;

/// The lane-varying coefficient `s` of the one uniform unknown of
/// [`Checker::unknown_stride_gaps`] and the constant offsets `c`, per lane; `None` when the
/// address has not that shape.
pub(super) fn stride_shape(addr: &WarpVal, lanes: u32) -> Option<(Lanes, Lanes)> {
    if addr.bad() & lanes != 0 {
        return None;
    }
    let first = lanes.trailing_zeros() as usize;
    let mut varying = addr.terms.iter().filter(|(m, c)| {
        *m != 0 && (0..32).any(|k| lanes & (1 << k) != 0 && c.get(k) != c.get(first))
    });
    let (Some((_, coef)), None) = (varying.next(), varying.next()) else {
        return None;
    };
    Some((coef.lanes(), addr.const_part()))
}

/// The test of [`Checker::unknown_stride_gaps`] on lanes at `c0[k] + coef[k]·m`.
pub(super) fn stride_exceptions(
    coef: &Lanes,
    c0: &Lanes,
    lanes: u32,
    size: u32,
) -> Option<Vec<i64>> {
    let n = lanes.count_ones();
    let ideal = memory::ideal_sectors(n, size);
    let mut exceptions = Vec::new();
    let mut offs: smallvec::SmallVec<[i64; 32]> = smallvec::SmallVec::new();
    for &v in &UNKNOWN_STRIDES {
        // The lanes' offsets at this value; none when one overflows.
        offs.clear();
        let fits = (0..32).filter(|k| lanes & (1 << k) != 0).all(|k| {
            let o = coef[k].checked_mul(v).and_then(|x| x.checked_add(c0[k]));
            offs.extend(o);
            o.is_some()
        });
        if !fits || memory::runs_aligned(&offs, size) <= ideal {
            if v.abs() > MAX_STRIDE_EXCEPTION {
                return None;
            }
            exceptions.push(v);
        }
    }
    Some(exceptions)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The kept answers of [`Checker::unknown_stride_gaps`] stand for every pattern of the
    /// same key: lanes moved by a constant and by a multiple of the unknown give the same
    /// exceptions (or none) as the lanes themselves, at the largest magnitudes keyed too.
    #[test]
    fn stride_test_moved_lanes_same_answer() {
        let lanes_sets = [
            u32::MAX,
            0xffff,
            0xffff_0000,
            0x5555_5555,
            0b1011,
            0x8000_0001,
        ];
        // (coefficient, constant offset in elements) of lane k.
        type Shape = (fn(i64) -> i64, fn(i64) -> i64);
        let shapes: [Shape; 6] = [
            (|k| k, |_| 0),
            (|k| k + 1, |k| 4 * k),
            (|k| k % 16, |k| 4 * (k / 16)),
            (|k| 2 * k, |k| 8 * k),
            (|k| -k, |k| 3 * k),
            (|k| k / 2, |k| 4 * (k % 2)),
        ];
        let mut answers = std::collections::HashSet::new();
        for (cf, cc) in shapes {
            for size in [1, 4, 8, 16] {
                for lanes in lanes_sets {
                    let coef: Lanes = std::array::from_fn(|k| cf(k as i64));
                    let c0: Lanes = std::array::from_fn(|k| cc(k as i64) * i64::from(size));
                    let want = stride_exceptions(&coef, &c0, lanes, size);
                    answers.insert(want.clone());
                    let key = StrideKey::new(&coef, &c0, lanes, size).unwrap();
                    for (dc, d0) in [(32, 128), (-7, 1000), (1 << 18, -(1 << 35)), (3, 12345)] {
                        let coef2: Lanes = std::array::from_fn(|k| coef[k] + dc);
                        let c02: Lanes = std::array::from_fn(|k| c0[k] + d0);
                        assert_eq!(
                            StrideKey::new(&coef2, &c02, lanes, size).as_ref(),
                            Some(&key)
                        );
                        assert_eq!(stride_exceptions(&coef2, &c02, lanes, size), want);
                    }
                }
            }
        }
        // The patterns above meet more than one answer (the test can tell them apart).
        assert!(answers.len() > 1, "{answers:?}");
        // Beyond the bound no key is made (the test runs on the lanes as they are).
        let big: Lanes = [1 << 40; 32];
        assert!(StrideKey::new(&big, &[0; 32], u32::MAX, 4).is_none());
        assert!(StrideKey::new(&[0; 32], &big, u32::MAX, 4).is_none());
        // The most negative value has no magnitude in i64: not keyed either.
        let mut least: Lanes = [0; 32];
        least[3] = i64::MIN;
        assert!(StrideKey::new(&least, &[0; 32], u32::MAX, 4).is_none());
        assert!(StrideKey::new(&[0; 32], &least, u32::MAX, 4).is_none());
    }
}
