//! The extremes of a pool of dice: its highest face, how many dice show the
//! top face, how many show a 1. Rules that score a pool by its best die and
//! count its criticals and fumbles (GCE hand-to-hand) need only this, and
//! its exact distribution has a closed form, so a pool of any size costs a
//! few hundred outcomes instead of `sides^n` rolls.

use super::Roller;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

/// What a rule reads off a rolled pool.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Extremes {
    /// Number of dice rolled.
    pub dice: u8,
    /// The highest face (0 for an empty pool).
    pub highest: u8,
    /// Dice showing the top face.
    pub tops: u8,
    /// Dice showing a 1.
    pub ones: u8,
}

impl Extremes {
    /// Dice that are neither a 1 nor the top face.
    pub fn middles(&self) -> u8 {
        self.dice - self.tops - self.ones
    }

    /// The extremes of two pools rolled together.
    pub fn merge(self, other: Extremes) -> Extremes {
        Extremes {
            dice: self.dice + other.dice,
            highest: self.highest.max(other.highest),
            tops: self.tops + other.tops,
            ones: self.ones + other.ones,
        }
    }

    /// Rolls `n` dice of `sides` faces one by one and reads their extremes
    /// (what the Monte Carlo sampler does).
    pub fn roll(dice: &mut impl Roller, n: u8, sides: u32) -> Extremes {
        let mut e = Extremes {
            dice: n,
            ..Extremes::default()
        };
        for _ in 0..n {
            let f = dice.roll(sides);
            e.highest = e.highest.max(f as u8);
            e.tops += u8::from(f == sides);
            e.ones += u8::from(f == 1);
        }
        e
    }

    /// Rolls `n` dice, exact under [`Replay`](super::Replay) through
    /// [`extremes_law`], real dice under the sampler.
    pub fn draw(dice: &mut impl Roller, law: &[(Extremes, f64)], n: u8, sides: u32) -> Extremes {
        dice.known(|| law, |d| Extremes::roll(d, n, sides))
    }
}

/// Laws of sub-rolls computed once per key for the exact evaluator (the
/// outcome of several strikes on a warrior in a given condition, say) and
/// drawn through [`Roller::known`]: the sampler rolls the real dice and
/// never touches the cache.
#[derive(Debug, Default)]
pub struct LawCache<K, T> {
    laws: Mutex<BTreeMap<K, Law<T>>>,
}

/// A law shared between the cache and its users.
type Law<T> = Arc<Vec<(T, f64)>>;

/// A shared law, as [`LawCache`] hands it out.
#[derive(Debug)]
pub struct SharedLaw<T>(Arc<Vec<(T, f64)>>);

impl<T> AsRef<[(T, f64)]> for SharedLaw<T> {
    fn as_ref(&self) -> &[(T, f64)] {
        &self.0
    }
}

impl<K: Ord + Clone, T: Clone> LawCache<K, T> {
    /// An empty cache.
    pub fn new() -> Self {
        LawCache {
            laws: Mutex::new(BTreeMap::new()),
        }
    }

    /// The law for `key`, computed by `compute` the first time.
    pub fn law(&self, key: K, compute: impl FnOnce() -> Vec<(T, f64)>) -> SharedLaw<T> {
        let mut laws = self.laws.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(law) = laws.get(&key) {
            return SharedLaw(law.clone());
        }
        let law = Arc::new(compute());
        laws.insert(key, law.clone());
        SharedLaw(law)
    }

    /// Draws the sub-roll for `key`: `sample` under the sampler; under the
    /// exact enumerator a branch on the law `compute` gives (computed once
    /// per key).
    pub fn draw<R: Roller>(
        &self,
        dice: &mut R,
        key: K,
        compute: impl FnOnce() -> Vec<(T, f64)>,
        sample: impl FnOnce(&mut R) -> T,
    ) -> T {
        dice.known(|| self.law(key, compute), sample)
    }
}

/// A law laid out for sampling in constant time from one uniform 64-bit
/// word (Walker's alias method, built by Vose's algorithm): the word's
/// high part by multiply-high picks a column, the low part decides between
/// the column's own outcome and its alias. Fast samplers walk a chain of
/// rounds this way, each round one word. Every outcome's probability is
/// represented to within `n * 2^-64` (plus the rounding of the build).
#[derive(Clone, Debug)]
pub struct Alias<T> {
    /// Per column: the threshold and both outcomes side by side, so a draw
    /// reads one entry.
    columns: Vec<Column<T>>,
}

/// One column of an [`Alias`] table.
#[derive(Clone, Debug)]
struct Column<T> {
    /// Below this the column keeps its own outcome (scaled to `2^64`).
    keep: u64,
    own: T,
    alias: T,
    /// Index of the alias's outcome in the law (for [`Alias::implied`]).
    alias_index: u32,
}

impl<T: Clone> Alias<T> {
    /// The table of `law` (probabilities summing to 1).
    pub fn new(law: &[(T, f64)]) -> Self {
        let n = law.len();
        assert!(n > 0, "a law has at least one outcome");
        let total: f64 = law.iter().map(|(_, p)| p).sum();
        let mut scaled: Vec<f64> = law.iter().map(|(_, p)| p / total * n as f64).collect();
        let (mut small, mut large): (Vec<usize>, Vec<usize>) =
            (0..n).partition(|&i| scaled[i] < 1.0);
        let mut keep = vec![u64::MAX; n];
        let mut alias: Vec<u32> = (0..n as u32).collect();
        while let (Some(&s), Some(&l)) = (small.last(), large.last()) {
            small.pop();
            keep[s] = (scaled[s] * 18_446_744_073_709_551_616.0) as u64;
            alias[s] = l as u32;
            scaled[l] -= 1.0 - scaled[s];
            if scaled[l] < 1.0 {
                large.pop();
                small.push(l);
            }
        }
        // what is left is 1 up to rounding: keep its own outcome
        Alias {
            columns: (0..n)
                .map(|c| Column {
                    keep: keep[c],
                    own: law[c].0.clone(),
                    alias: law[alias[c] as usize].0.clone(),
                    alias_index: alias[c],
                })
                .collect(),
        }
    }

    /// The outcome for uniform `word`.
    #[inline]
    pub fn sample(&self, word: u64) -> &T {
        let wide = u128::from(word) * self.columns.len() as u128;
        let c = &self.columns[(wide >> 64) as usize];
        if (wide as u64) < c.keep {
            &c.own
        } else {
            &c.alias
        }
    }

    /// Every column as (threshold, own outcome, alias): what a sampler
    /// that lays the table out again (its outcomes mapped) needs.
    pub fn columns(&self) -> impl Iterator<Item = (u64, &T, &T)> {
        self.columns.iter().map(|c| (c.keep, &c.own, &c.alias))
    }

    /// The probability the table gives each outcome, in the law's order.
    pub fn implied(&self) -> Vec<f64> {
        let n = self.columns.len();
        let mut p = vec![0.0; n];
        for (c, col) in self.columns.iter().enumerate() {
            let own = if col.keep == u64::MAX {
                1.0
            } else {
                col.keep as f64 / 18_446_744_073_709_551_616.0
            };
            p[c] += own / n as f64;
            p[col.alias_index as usize] += (1.0 - own) / n as f64;
        }
        p
    }
}

/// The exact distribution of the extremes of `n` dice with `sides` faces
/// (`sides >= 3`, so the top face, the 1 and the faces between differ).
/// With `t` tops, `o` ones and `r = n - t - o` dice between:
/// `P = C(n, t) C(n - t, o) (1/s)^(t + o) w / s^r`, where `w = (s - 2)^r`
/// when `t > 0` and otherwise the `r` middle dice have highest exactly `h`:
/// `w = (h - 1)^r - (h - 2)^r`.
pub fn extremes_law(n: u8, sides: u32) -> Vec<(Extremes, f64)> {
    assert!(
        sides >= 3,
        "extremes need a top face, a 1 and faces between"
    );
    let s = f64::from(sides);
    let top = sides as u8;
    let mut out = Vec::new();
    if n == 0 {
        out.push((Extremes::default(), 1.0));
        return out;
    }
    let choose = |n: u32, k: u32| -> f64 {
        (0..k).fold(1.0, |c, i| c * f64::from(n - i) / f64::from(i + 1))
    };
    let n32 = u32::from(n);
    for tops in 0..=n32 {
        for ones in 0..=n32 - tops {
            let r = n32 - tops - ones;
            let base = choose(n32, tops) * choose(n32 - tops, ones) / s.powi((tops + ones) as i32);
            let make = |highest: u8| Extremes {
                dice: n,
                highest,
                tops: tops as u8,
                ones: ones as u8,
            };
            if tops > 0 {
                let p = base * ((s - 2.0) / s).powi(r as i32);
                out.push((make(top), p));
            } else if r == 0 {
                out.push((make(1), base));
            } else {
                for h in 2..top {
                    let h = f64::from(h);
                    let w = ((h - 1.0) / s).powi(r as i32) - ((h - 2.0) / s).powi(r as i32);
                    out.push((make(h as u8), base * w));
                }
            }
        }
    }
    out.retain(|(_, p)| *p > 0.0);
    out.sort_by_key(|a| a.0);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::enumerate;

    #[test]
    fn closed_form_matches_enumerating_every_roll() {
        for sides in [3u32, 6] {
            for n in 0..=5u8 {
                let law = extremes_law(n, sides);
                let brute = enumerate(1 << 16, |r| Extremes::roll(r, n, sides)).unwrap();
                assert_eq!(law.len(), brute.len(), "n {n} sides {sides}");
                for ((a, p), (b, q)) in law.iter().zip(&brute) {
                    assert_eq!(a, b);
                    assert!((p - q).abs() < 1e-14, "{a:?}: {p} vs {q}");
                }
            }
        }
    }

    #[test]
    fn alias_tables_give_each_outcome_its_probability() {
        for law in [
            extremes_law(4, 6),
            extremes_law(1, 6),
            vec![(Extremes::default(), 1.0)],
        ] {
            let t = Alias::new(&law);
            for ((_, p), q) in law.iter().zip(t.implied()) {
                assert!((p - q).abs() < 1e-15, "{p} vs {q}");
            }
        }
        // a single column and its words: the low part decides
        let t = Alias::new(&[('a', 0.25), ('b', 0.75)]);
        assert_eq!(t.implied(), vec![0.25, 0.75]);
        let seen: Vec<char> = [0u64, u64::MAX / 4, u64::MAX / 2, u64::MAX]
            .iter()
            .map(|&w| *t.sample(w))
            .collect();
        assert!(seen.contains(&'a') && seen.contains(&'b'), "{seen:?}");
    }

    #[test]
    fn big_pools_sum_to_one() {
        for n in [10u8, 20, 40] {
            let total: f64 = extremes_law(n, 6).iter().map(|(_, p)| p).sum();
            assert!((total - 1.0).abs() < 1e-12, "{n}: {total}");
        }
    }
}
