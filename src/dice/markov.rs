//! Absorbing Markov chains for "repeat until" rules: a warrior rolling to
//! recover from Down every turn, ships grappled in a boarding action until one
//! is taken, thrusting until a test fails.

use super::linear::solve_linear;

/// A chain with `transient` states that can move among themselves (matrix
/// `Q`) or into absorbing states (matrix `R`). Each row of `[Q | R]` sums to 1.
#[derive(Clone, Debug)]
pub struct AbsorbingChain {
    q: Vec<Vec<f64>>,
    r: Vec<Vec<f64>>,
}

/// Errors building an absorbing chain.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum ChainError {
    /// A row's probabilities do not sum to one.
    #[error("row {row} of the chain sums to {sum}, not 1")]
    RowSum {
        /// The offending row.
        row: usize,
        /// Its sum.
        sum: f64,
    },
    /// The matrices disagree in shape.
    #[error("Q is {q_rows} rows but R is {r_rows}")]
    Shape {
        /// Rows of Q.
        q_rows: usize,
        /// Rows of R.
        r_rows: usize,
    },
    /// Some transient state can never reach an absorbing state.
    #[error("the chain never absorbs from some state (I - Q is singular)")]
    NeverAbsorbs,
}

impl AbsorbingChain {
    /// Builds the chain from its transient-to-transient matrix `q` and its
    /// transient-to-absorbing matrix `r`.
    pub fn new(q: Vec<Vec<f64>>, r: Vec<Vec<f64>>) -> Result<Self, ChainError> {
        if q.len() != r.len() {
            return Err(ChainError::Shape {
                q_rows: q.len(),
                r_rows: r.len(),
            });
        }
        for (row, (qr, rr)) in q.iter().zip(&r).enumerate() {
            let sum: f64 = qr.iter().chain(rr).sum();
            if (sum - 1.0).abs() > 1e-9 || qr.len() != q.len() {
                return Err(ChainError::RowSum { row, sum });
            }
        }
        Ok(AbsorbingChain { q, r })
    }

    /// `(I - Q)^-1`, the fundamental matrix: expected visits to each transient
    /// state, by the kernel's [`solve_linear`] on `[I - Q | I]`; chains here
    /// are small.
    fn fundamental(&self) -> Result<Vec<Vec<f64>>, ChainError> {
        let n = self.q.len();
        let a: Vec<Vec<f64>> = (0..n)
            .map(|i| {
                let mut row: Vec<f64> = (0..n)
                    .map(|j| f64::from(u8::from(i == j)) - self.q[i][j])
                    .collect();
                row.extend((0..n).map(|j| f64::from(u8::from(i == j))));
                row
            })
            .collect();
        solve_linear(a, 1e-14).ok_or(ChainError::NeverAbsorbs)
    }

    /// Probability of ending in each absorbing state from each transient
    /// state: `B = (I - Q)^-1 R`, indexed `[start][absorbing]`.
    pub fn absorption(&self) -> Result<Vec<Vec<f64>>, ChainError> {
        let n_inv = self.fundamental()?;
        let m = self.r.first().map_or(0, Vec::len);
        Ok(n_inv
            .iter()
            .map(|row| {
                (0..m)
                    .map(|j| row.iter().zip(&self.r).map(|(a, r)| a * r[j]).sum())
                    .collect()
            })
            .collect())
    }

    /// Expected number of steps before absorption from each transient state.
    pub fn expected_steps(&self) -> Result<Vec<f64>, ChainError> {
        Ok(self
            .fundamental()?
            .iter()
            .map(|row| row.iter().sum())
            .collect())
    }

    /// P(absorbed within exactly `k` steps) for `k = 1..=max_steps`, starting
    /// from transient state `start`: the distribution of how long it lasts.
    pub fn steps_distribution(&self, start: usize, max_steps: usize) -> Vec<f64> {
        let n = self.q.len();
        let mut v = vec![0.0; n];
        v[start] = 1.0;
        let mut out = Vec::with_capacity(max_steps);
        for _ in 0..max_steps {
            let absorbed: f64 = v
                .iter()
                .zip(&self.r)
                .map(|(p, r)| p * r.iter().sum::<f64>())
                .sum();
            out.push(absorbed);
            v = (0..n)
                .map(|j| v.iter().zip(&self.q).map(|(p, q)| p * q[j]).sum())
                .collect();
        }
        out
    }
}

/// One step of a chain: the distribution of next states, or `None` when it
/// cannot be enumerated.
pub type Transition<'a, S> = dyn FnMut(&S) -> Option<Vec<(S, f64)>> + 'a;

/// The result of [`absorb_monotone`]: where the chain ends and how long it
/// takes.
#[derive(Clone, Debug, PartialEq)]
pub struct Absorbed<S: Ord> {
    /// Probability of ending in each absorbing state.
    pub finals: std::collections::BTreeMap<S, f64>,
    /// P(absorbed after exactly `k` steps) for `k = 0..=shown`, then the
    /// probability of taking longer.
    pub steps: Vec<f64>,
    /// Expected number of steps.
    pub mean_steps: f64,
}

/// Absorption of a chain whose only cycles are self-loops: every step
/// either stays put or moves to a state the chain can never come back from
/// (damage only goes down, a fight only moves on). Such a chain is solved
/// exactly by elimination in that order, memoised, without a matrix:
/// `F(s) = sum over s' != s of T(s, s') F(s') / (1 - T(s, s))`.
///
/// `transition` gives one step's distribution from a transient state (or
/// `None` when it cannot be enumerated); `absorbing` says which states end
/// the chain. Steps are counted up to `shown`.
pub fn absorb_monotone<S: Ord + Clone>(
    start: &S,
    shown: usize,
    absorbing: &dyn Fn(&S) -> bool,
    transition: &mut Transition<'_, S>,
) -> Option<Absorbed<S>> {
    let mut memo = std::collections::BTreeMap::new();
    absorb_from(start, shown, absorbing, transition, &mut memo)
}

fn absorb_from<S: Ord + Clone>(
    s: &S,
    shown: usize,
    absorbing: &dyn Fn(&S) -> bool,
    transition: &mut Transition<'_, S>,
    memo: &mut std::collections::BTreeMap<S, Absorbed<S>>,
) -> Option<Absorbed<S>> {
    if absorbing(s) {
        let mut steps = vec![0.0; shown + 2];
        steps[0] = 1.0;
        return Some(Absorbed {
            finals: std::collections::BTreeMap::from([(s.clone(), 1.0)]),
            steps,
            mean_steps: 0.0,
        });
    }
    if let Some(a) = memo.get(s) {
        return Some(a.clone());
    }
    let next = transition(s)?;
    let stay: f64 = next.iter().filter(|(t, _)| t == s).map(|(_, p)| p).sum();
    if stay >= 1.0 - 1e-15 {
        return None;
    }
    let mut finals = std::collections::BTreeMap::new();
    let mut moved = vec![0.0; shown + 2];
    let mut mean = 1.0;
    for (t, p) in &next {
        if t == s {
            continue;
        }
        let sub = absorb_from(t, shown, absorbing, transition, memo)?;
        for (f, q) in &sub.finals {
            *finals.entry(f.clone()).or_insert(0.0) += p / (1.0 - stay) * q;
        }
        for k in 0..shown {
            moved[k + 1] += p * sub.steps[k];
        }
        mean += p * sub.mean_steps;
    }
    // P(done after exactly k steps) = stay * P(k - 1) + (moved on, done in k - 1)
    let mut steps = vec![0.0; shown + 2];
    for k in 1..=shown {
        steps[k] = stay * steps[k - 1] + moved[k];
    }
    let counted: f64 = steps[..=shown].iter().sum();
    steps[shown + 1] = (1.0 - counted).max(0.0);
    let a = Absorbed {
        finals,
        steps,
        mean_steps: mean / (1.0 - stay),
    };
    memo.insert(s.clone(), a.clone());
    Some(a)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gamblers_ruin_matches_closed_form() {
        // Fair walk on 1..=3 absorbing at 0 and 4: P(reach 4 from i) = i/4.
        let q = vec![
            vec![0.0, 0.5, 0.0],
            vec![0.5, 0.0, 0.5],
            vec![0.0, 0.5, 0.0],
        ];
        let r = vec![vec![0.5, 0.0], vec![0.0, 0.0], vec![0.0, 0.5]];
        let chain = AbsorbingChain::new(q, r).unwrap();
        let b = chain.absorption().unwrap();
        for (i, row) in b.iter().enumerate() {
            assert!((row[1] - (i + 1) as f64 / 4.0).abs() < 1e-12);
        }
        // Expected duration i * (4 - i).
        let t = chain.expected_steps().unwrap();
        assert!((t[0] - 3.0).abs() < 1e-12 && (t[1] - 4.0).abs() < 1e-12);
    }

    #[test]
    fn monotone_absorption_matches_the_matrix_solution() {
        // Countdown from 3: each step stays with 1/2, drops 1 with 1/3, drops 2
        // with 1/6; absorbing at 0 or below (clamped to 0).
        let step = |s: &i32| {
            Some(vec![
                (*s, 0.5),
                ((s - 1).max(0), 1.0 / 3.0),
                ((s - 2).max(0), 1.0 / 6.0),
            ])
        };
        let mut t = step;
        let a = absorb_monotone(&3, 4, &|s: &i32| *s == 0, &mut t).unwrap();
        assert!((a.finals[&0] - 1.0).abs() < 1e-12);
        // expected steps from the fundamental matrix of the same chain
        let q = vec![
            vec![0.5, 0.0, 0.0],
            vec![1.0 / 3.0, 0.5, 0.0],
            vec![1.0 / 6.0, 1.0 / 3.0, 0.5],
        ];
        let r = vec![vec![0.5], vec![1.0 / 6.0], vec![0.0]];
        let chain = AbsorbingChain::new(q, r).unwrap();
        let mean = chain.expected_steps().unwrap()[2];
        assert!(
            (a.mean_steps - mean).abs() < 1e-12,
            "{} vs {mean}",
            a.mean_steps
        );
        let dist = chain.steps_distribution(2, 4);
        for k in 1..=4 {
            assert!((a.steps[k] - dist[k - 1]).abs() < 1e-12, "k = {k}");
        }
    }

    #[test]
    fn geometric_steps_distribution() {
        let chain = AbsorbingChain::new(vec![vec![0.5]], vec![vec![0.5]]).unwrap();
        let d = chain.steps_distribution(0, 3);
        assert_eq!(d, vec![0.5, 0.25, 0.125]);
    }

    #[test]
    fn rejects_bad_rows_and_closed_loops() {
        assert!(matches!(
            AbsorbingChain::new(vec![vec![0.5]], vec![vec![0.2]]),
            Err(ChainError::RowSum { row: 0, .. })
        ));
        let stuck = AbsorbingChain::new(vec![vec![1.0]], vec![vec![0.0]]).unwrap();
        assert_eq!(stuck.absorption(), Err(ChainError::NeverAbsorbs));
    }
}
