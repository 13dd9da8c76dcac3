//! Canonical sums of products: the normal form of Arithmetic Control Form expressions.
//!
//! A [`Poly`] is `Σ cᵢ · Πⱼ aᵢⱼ` with integer coefficients over *atoms*, where an atom is any
//! ACF node that is not `+`, `-`, `·` or a constant (a thread index, a parameter, a loop-carried
//! value, a comparison used as a 0/1 factor, a division, ...). Terms are kept sorted with their
//! factors sorted, so two expressions are equal exactly when their polynomials are, and
//! differences cancel the way GPUCheck's `ACF₁(addr) − ACF₀(addr)` does.

use crate::expr::Node;
use std::collections::BTreeMap;

/// A monomial: atoms with multiplicity, sorted. The empty monomial is the constant 1.
pub type Monomial = Vec<Node>;

/// A canonical polynomial.
#[derive(Debug, Clone, PartialEq, Eq, Default, Hash)]
pub struct Poly {
    /// Nonzero coefficients by monomial.
    pub terms: BTreeMap<Monomial, i64>,
}

impl Poly {
    pub fn zero() -> Poly {
        Poly::default()
    }

    pub fn constant(c: i64) -> Poly {
        let mut p = Poly::zero();
        if c != 0 {
            p.terms.insert(Vec::new(), c);
        }
        p
    }

    pub fn atom(n: Node) -> Poly {
        let mut p = Poly::zero();
        p.terms.insert(vec![n], 1);
        p
    }

    /// The constant value, when the polynomial has no atoms.
    pub fn as_const(&self) -> Option<i64> {
        match self.terms.len() {
            0 => Some(0),
            1 => self.terms.get(&Vec::new()).copied(),
            _ => None,
        }
    }

    pub fn add(&self, o: &Poly) -> Poly {
        let mut r = self.clone();
        for (m, c) in &o.terms {
            let e = r.terms.entry(m.clone()).or_insert(0);
            *e = e.wrapping_add(*c);
            if *e == 0 {
                r.terms.remove(m);
            }
        }
        r
    }

    pub fn neg(&self) -> Poly {
        Poly {
            terms: self
                .terms
                .iter()
                .map(|(m, c)| (m.clone(), c.wrapping_neg()))
                .collect(),
        }
    }

    pub fn sub(&self, o: &Poly) -> Poly {
        self.add(&o.neg())
    }

    pub fn mul(&self, o: &Poly) -> Poly {
        let mut r = Poly::zero();
        for (ma, ca) in &self.terms {
            for (mb, cb) in &o.terms {
                let mut m: Monomial = ma.iter().chain(mb.iter()).copied().collect();
                m.sort();
                let e = r.terms.entry(m.clone()).or_insert(0);
                *e = e.wrapping_add(ca.wrapping_mul(*cb));
                if *e == 0 {
                    r.terms.remove(&m);
                }
            }
        }
        r
    }

    /// Whether any monomial mentions an atom satisfying `pred`.
    pub fn mentions(&self, mut pred: impl FnMut(Node) -> bool) -> bool {
        self.terms.keys().any(|m| m.iter().any(|&a| pred(a)))
    }

    /// Atoms in order of first appearance.
    pub fn atoms(&self) -> Vec<Node> {
        let mut v: Vec<Node> = self.terms.keys().flatten().copied().collect();
        v.sort();
        v.dedup();
        v
    }

    /// Renders with `name` for atoms: `4*tid.x + 1024*ctaid.x + [in]`.
    pub fn display(&self, mut name: impl FnMut(Node) -> String) -> String {
        if self.terms.is_empty() {
            return "0".into();
        }
        let mut parts: Vec<(bool, String)> = Vec::new();
        // Non-constant terms first, by degree then atoms; the constant last.
        let mut terms: Vec<(&Monomial, &i64)> = self.terms.iter().collect();
        terms.sort_by_key(|(m, _)| (m.is_empty(), m.len(), (*m).clone()));
        for (m, &c) in terms {
            let neg = c < 0;
            let mag = c.unsigned_abs();
            let factors: Vec<String> = m.iter().map(|&a| name(a)).collect();
            let body = if factors.is_empty() {
                mag.to_string()
            } else if mag == 1 {
                factors.join("*")
            } else {
                format!("{mag}*{}", factors.join("*"))
            };
            parts.push((neg, body));
        }
        let mut s = String::new();
        for (i, (neg, body)) in parts.into_iter().enumerate() {
            match (i, neg) {
                (0, true) => s.push('-'),
                (0, false) => {}
                (_, true) => s.push_str(" - "),
                (_, false) => s.push_str(" + "),
            }
            s.push_str(&body);
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use cranelift_entity::EntityRef;
    use proptest::prelude::*;

    fn p(terms: &[(i64, &[usize])]) -> Poly {
        let mut r = Poly::zero();
        for (c, atoms) in terms {
            let mut t = Poly::constant(*c);
            for &a in *atoms {
                t = t.mul(&Poly::atom(Node::new(a)));
            }
            r = r.add(&t);
        }
        r
    }

    #[test]
    fn differences_cancel_uniform_atoms() {
        // (a + 4*t1) - (a + 4*t0) = 4*t1 - 4*t0
        let x = p(&[(1, &[0]), (4, &[1])]);
        let y = p(&[(1, &[0]), (4, &[2])]);
        let d = x.sub(&y);
        assert!(!d.mentions(|n| n.index() == 0));
        assert_eq!(x.sub(&x).as_const(), Some(0));
    }

    #[test]
    fn display_is_readable() {
        let x = p(&[(4, &[1]), (1024, &[2]), (-3, &[])]);
        let s = x.display(|n| format!("a{}", n.index()));
        assert_eq!(s, "4*a1 + 1024*a2 - 3");
    }

    fn arb_poly() -> impl Strategy<Value = Poly> {
        prop::collection::vec((-5i64..5, prop::collection::vec(0usize..3, 0..3)), 0..4).prop_map(
            |ts| {
                let mut r = Poly::zero();
                for (c, atoms) in ts {
                    let mut t = Poly::constant(c);
                    for a in atoms {
                        t = t.mul(&Poly::atom(Node::new(a)));
                    }
                    r = r.add(&t);
                }
                r
            },
        )
    }

    proptest! {
        // Ring laws of the canonical form.
        #[test]
        fn ring_laws(a in arb_poly(), b in arb_poly(), c in arb_poly()) {
            prop_assert_eq!(a.add(&b), b.add(&a));
            prop_assert_eq!(a.mul(&b), b.mul(&a));
            prop_assert_eq!(a.add(&b).add(&c), a.add(&b.add(&c)));
            prop_assert_eq!(a.mul(&b).mul(&c), a.mul(&b.mul(&c)));
            prop_assert_eq!(a.mul(&b.add(&c)), a.mul(&b).add(&a.mul(&c)));
            prop_assert_eq!(a.sub(&a), Poly::zero());
            prop_assert_eq!(a.mul(&Poly::constant(1)), a.clone());
        }
    }
}
