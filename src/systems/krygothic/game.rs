//! The attack type and the defence type are choices made against each
//! other (Chapter 4, Steps 2 and 4): a zero-sum game whose payoff is the
//! expected wounds (or P(a wound)) of every attack against every defence.
//! Solved exactly by the simplex method on the small matrix (Bland's rule,
//! so it cannot cycle), checked against brute force over every square
//! sub-game (Shapley-Snow kernels) and by the optimality certificate.

use super::close::{Exchange, choices, fight_of, payoff_is_p};
use super::model::{OutcomeModel, Outcomes};
use crate::dice::{Metric, MetricSink, Roller};
use crate::systems::{MetricDecl, MetricList, Model, ParamError, Params};

/// A solved zero-sum game: the row player maximises.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// The value.
    pub value: f64,
    /// The row player's optimal mixed strategy.
    pub rows: Vec<f64>,
    /// The column player's optimal mixed strategy.
    pub cols: Vec<f64>,
}

const EPS: f64 = 1e-12;

/// Solves the game with payoff `a[i][j]` to the row player. With the
/// matrix shifted positive (`b`), the column player's strategy scaled by
/// the value solves `max 1.w : b w <= 1, w >= 0`, and the row player's is
/// that programme's dual, read off the final tableau's slack columns.
pub fn solve(a: &[Vec<f64>]) -> Solution {
    let m = a.len();
    let n = a[0].len();
    let lo = a.iter().flatten().copied().fold(f64::INFINITY, f64::min);
    let shift = 1.0 - lo;
    // tableau rows: [b | I | 1]; objective row: [-1 | 0 | 0]
    let width = n + m + 1;
    let mut t: Vec<Vec<f64>> = (0..m)
        .map(|i| {
            let mut r = vec![0.0; width];
            for j in 0..n {
                r[j] = a[i][j] + shift;
            }
            r[n + i] = 1.0;
            r[width - 1] = 1.0;
            r
        })
        .collect();
    let mut obj = vec![0.0; width];
    for o in obj.iter_mut().take(n) {
        *o = -1.0;
    }
    let mut basis: Vec<usize> = (n..n + m).collect();
    // Bland: the lowest-index column that improves
    while let Some(enter) = (0..n + m).find(|&j| obj[j] < -EPS) {
        let mut leave: Option<usize> = None;
        for i in 0..m {
            if t[i][enter] > EPS {
                let ratio = t[i][width - 1] / t[i][enter];
                leave = match leave {
                    None => Some(i),
                    Some(l) => {
                        let best = t[l][width - 1] / t[l][enter];
                        if ratio < best - EPS || (ratio <= best + EPS && basis[i] < basis[l]) {
                            Some(i)
                        } else {
                            Some(l)
                        }
                    }
                };
            }
        }
        // b > 0 keeps the programme bounded: some row always limits
        let Some(l) = leave else { break };
        let pv = t[l][enter];
        for x in t[l].iter_mut() {
            *x /= pv;
        }
        let pivot_row = t[l].clone();
        for (i, row) in t.iter_mut().enumerate() {
            if i != l && row[enter].abs() > 0.0 {
                let f = row[enter];
                for (x, p) in row.iter_mut().zip(&pivot_row) {
                    *x -= f * p;
                }
            }
        }
        let f = obj[enter];
        for (x, p) in obj.iter_mut().zip(&pivot_row) {
            *x -= f * p;
        }
        basis[l] = enter;
    }
    let mut w = vec![0.0; n];
    for (i, &b) in basis.iter().enumerate() {
        if b < n {
            w[b] = t[i][width - 1];
        }
    }
    let total: f64 = w.iter().sum();
    let u: Vec<f64> = (0..m).map(|i| obj[n + i].max(0.0)).collect();
    let utotal: f64 = u.iter().sum();
    Solution {
        value: 1.0 / total - shift,
        rows: u.iter().map(|x| x / utotal).collect(),
        cols: w.iter().map(|x| x / total).collect(),
    }
}

/// What the row strategy `x` guarantees and what the column strategy `y`
/// concedes at most: equal (to the value) exactly when both are optimal.
pub fn guarantees(a: &[Vec<f64>], x: &[f64], y: &[f64]) -> (f64, f64) {
    let n = a[0].len();
    let floor = (0..n)
        .map(|j| (0..a.len()).map(|i| x[i] * a[i][j]).sum::<f64>())
        .fold(f64::INFINITY, f64::min);
    let ceil = a
        .iter()
        .map(|row| row.iter().zip(y).map(|(v, q)| v * q).sum::<f64>())
        .fold(f64::NEG_INFINITY, f64::max);
    (floor, ceil)
}

/// Every metric of the game scenario.
pub const METRICS: [MetricDecl; 4] = [
    MetricDecl::mean(
        "value_mean_wounds",
        "game value (mean wounds)",
        "payoff mean_wounds: expected wounds when both sides play their optimal mixed strategies",
    ),
    MetricDecl::probability(
        "value_p_wound",
        "game value (P(wound))",
        "payoff p_wound: P(a wound) when both sides play their optimal mixed strategies",
    ),
    MetricDecl::probability(
        "attack={k}",
        "P(attack {k})",
        "the attacker's optimal mixed strategy: how often it plays attack k",
    ),
    MetricDecl::probability(
        "defence={k}",
        "P(defence {k})",
        "the defender's optimal mixed strategy: how often it plays defence k",
    ),
];

/// The scenario's metric catalogue.
pub fn metric_catalog() -> Vec<MetricDecl> {
    METRICS.to_vec()
}

/// The game between two stat lines: optimal mixes played out.
pub struct GameRule {
    exchanges: Vec<Vec<Exchange>>,
    solution: Solution,
    by_p: bool,
    list: MetricList,
    value: Metric,
    attacks: Vec<Metric>,
    defences: Vec<Metric>,
}

/// One play: the attack and defence drawn, and the wounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Play {
    attack: usize,
    defence: usize,
    wounds: u8,
}

/// A uniform draw in [0, 1) from 48 bits of dice.
fn uniform<R: Roller>(dice: &mut R) -> f64 {
    let mut x = 0u64;
    for _ in 0..3 {
        x = (x << 16) | u64::from(dice.roll(1 << 16) - 1);
    }
    x as f64 / (1u64 << 48) as f64
}

fn pick(p: &[f64], u: f64) -> usize {
    let mut acc = 0.0;
    for (i, q) in p.iter().enumerate() {
        acc += q;
        if u < acc {
            return i;
        }
    }
    p.iter().rposition(|q| *q > 0.0).unwrap_or(0)
}

impl Outcomes for GameRule {
    type Out = Play;

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn sample<R: Roller>(&self, dice: &mut R) -> Play {
        let attack = pick(&self.solution.rows, uniform(dice));
        let defence = pick(&self.solution.cols, uniform(dice));
        let wounds = self.exchanges[attack][defence].roll(dice).wounds;
        Play {
            attack,
            defence,
            wounds,
        }
    }

    fn law(&self) -> Vec<(Play, f64)> {
        let mut out = Vec::new();
        for (attack, px) in self.solution.rows.iter().enumerate() {
            for (defence, py) in self.solution.cols.iter().enumerate() {
                if *px == 0.0 || *py == 0.0 {
                    continue;
                }
                for (o, p) in self.exchanges[attack][defence].law() {
                    out.push((
                        Play {
                            attack,
                            defence,
                            wounds: o.wounds,
                        },
                        px * py * p,
                    ));
                }
            }
        }
        out
    }

    fn record(&self, o: &Play, sink: &mut impl MetricSink) {
        let v = if self.by_p {
            u64::from(o.wounds > 0)
        } else {
            u64::from(o.wounds)
        };
        sink.record(self.value, v);
        sink.record(self.attacks[o.attack], 1);
        sink.record(self.defences[o.defence], 1);
    }
}

/// The payoff matrix of a fight (rows attacks, columns defences).
pub fn payoff_matrix(exchanges: &[Vec<Exchange>], by_p: bool) -> Vec<Vec<f64>> {
    exchanges
        .iter()
        .map(|row| {
            row.iter()
                .map(|e| {
                    let (m, q) = e.payoff();
                    if by_p { q } else { m }
                })
                .collect()
        })
        .collect()
}

/// The exchanges of every attack against every defence (a defence the
/// attack does not allow falls back to the passive roll: see
/// [`played`](super::close::played)).
pub fn exchanges(
    fight: &super::close::Fight,
    attacks: &[(super::close::Attack, &str)],
    defences: &[(super::close::Defence, &str)],
) -> Vec<Vec<Exchange>> {
    attacks
        .iter()
        .map(|(a, _)| {
            defences
                .iter()
                .map(|(d, _)| Exchange {
                    fight: *fight,
                    attack: *a,
                    defence: super::close::played(fight, *a, *d),
                })
                .collect()
        })
        .collect()
}

/// Builds the game model.
pub fn build(p: &Params, v: &Params) -> Result<Box<dyn Model>, ParamError> {
    let fight = fight_of(p, v)?;
    let by_p = payoff_is_p(p)?;
    let (attacks, defences) = choices(&fight);
    let exchanges = exchanges(&fight, &attacks, &defences);
    let solution = solve(&payoff_matrix(&exchanges, by_p));
    let mut list = MetricList::new();
    let value = list.add(if by_p { &METRICS[1] } else { &METRICS[0] });
    let attacks = list.family(&METRICS[2], attacks.iter().map(|x| x.1));
    let defences = list.family(&METRICS[3], defences.iter().map(|x| x.1));
    Ok(Box::new(OutcomeModel(GameRule {
        exchanges,
        solution,
        by_p,
        list,
        value,
        attacks,
        defences,
    })))
}

/// Conformance points.
pub const TEST_POINTS: &[&[(&str, &str)]] = &[
    &[("attacker", "average_joe"), ("defender", "average_joe")],
    &[
        ("attacker", "average_joe"),
        ("attacker_cc", "4"),
        ("attacker_strength", "3"),
        ("attacker_weapon", "axe"),
        ("attacker_ranged_weapon", "true"),
        ("defender", "average_joe"),
        ("defender_save", "2"),
        ("defender_weapon", "knife"),
        ("defender_ranged_weapon", "true"),
        ("payoff", "p_wound"),
    ],
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::BatchedRoller;

    /// Brute force: every square sub-game (rows R, columns C) whose
    /// equalising row strategy exists; the best guarantee among them is
    /// the value (Shapley-Snow: some optimal strategy is such a kernel's).
    fn brute_value(a: &[Vec<f64>]) -> f64 {
        let m = a.len();
        let n = a[0].len();
        let mut best = f64::NEG_INFINITY;
        for rmask in 1u32..(1 << m) {
            for cmask in 1u32..(1 << n) {
                if rmask.count_ones() != cmask.count_ones() {
                    continue;
                }
                let rs: Vec<usize> = (0..m).filter(|i| rmask >> i & 1 == 1).collect();
                let cs: Vec<usize> = (0..n).filter(|j| cmask >> j & 1 == 1).collect();
                let k = rs.len();
                // unknowns x_r (k) and v: sum_r x_r a[r][c] - v = 0, sum x = 1
                let mut eq: Vec<Vec<f64>> = cs
                    .iter()
                    .map(|&c| {
                        let mut row: Vec<f64> = rs.iter().map(|&r| a[r][c]).collect();
                        row.extend([-1.0, 0.0]);
                        row
                    })
                    .collect();
                let mut last = vec![1.0; k];
                last.extend([0.0, 1.0]);
                eq.push(last);
                let Some(sol) = gauss(eq) else { continue };
                if sol[..k].iter().any(|x| *x < -1e-12) {
                    continue;
                }
                let mut x = vec![0.0; m];
                for (i, &r) in rs.iter().enumerate() {
                    x[r] = sol[i];
                }
                let (floor, _) = guarantees(a, &x, &vec![1.0 / n as f64; n]);
                best = best.max(floor);
            }
        }
        best
    }

    fn gauss(mut e: Vec<Vec<f64>>) -> Option<Vec<f64>> {
        let n = e.len();
        for c in 0..n {
            let p = (c..n).max_by(|&i, &j| e[i][c].abs().total_cmp(&e[j][c].abs()))?;
            if e[p][c].abs() < 1e-12 {
                return None;
            }
            e.swap(c, p);
            for i in 0..n {
                if i != c {
                    let f = e[i][c] / e[c][c];
                    let pivot = e[c].clone();
                    for (x, p) in e[i].iter_mut().zip(&pivot).skip(c) {
                        *x -= f * p;
                    }
                }
            }
        }
        Some((0..n).map(|i| e[i][n] / e[i][i]).collect())
    }

    #[test]
    fn known_games() {
        // matching pennies: value 0, both 1/2
        let s = solve(&[vec![1.0, -1.0], vec![-1.0, 1.0]]);
        assert!(s.value.abs() < 1e-12);
        assert!((s.rows[0] - 0.5).abs() < 1e-12 && (s.cols[0] - 0.5).abs() < 1e-12);
        // rock-paper-scissors
        let s = solve(&[
            vec![0.0, -1.0, 1.0],
            vec![1.0, 0.0, -1.0],
            vec![-1.0, 1.0, 0.0],
        ]);
        assert!(s.value.abs() < 1e-12);
        assert!(s.rows.iter().all(|x| (x - 1.0 / 3.0).abs() < 1e-12));
        // a saddle point: row 1, column 0, value 2
        let s = solve(&[vec![1.0, 5.0], vec![2.0, 3.0]]);
        assert!((s.value - 2.0).abs() < 1e-12);
        assert!((s.rows[1] - 1.0).abs() < 1e-12 && (s.cols[0] - 1.0).abs() < 1e-12);
    }

    /// Random games from 2 x 2 to 6 x 6 (and degenerate ones with repeated
    /// entries): the simplex's strategies certify its value, and the value
    /// is the brute force's.
    #[test]
    fn simplex_matches_brute_force() {
        let mut r = BatchedRoller::new(11, &[0]);
        for trial in 0..400 {
            let m = 1 + r.roll(5) as usize;
            let n = 1 + r.roll(5) as usize;
            let coarse = trial % 2 == 0;
            let a: Vec<Vec<f64>> = (0..m)
                .map(|_| {
                    (0..n)
                        .map(|_| {
                            if coarse {
                                f64::from(r.roll(4)) - 2.0
                            } else {
                                uniform(&mut r) * 3.0 - 1.0
                            }
                        })
                        .collect()
                })
                .collect();
            let s = solve(&a);
            assert!((s.rows.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            assert!((s.cols.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            assert!(s.rows.iter().chain(&s.cols).all(|x| *x >= -1e-12));
            let (floor, ceil) = guarantees(&a, &s.rows, &s.cols);
            assert!(
                (floor - s.value).abs() < 1e-9,
                "{a:?}: {floor} vs {}",
                s.value
            );
            assert!(
                (ceil - s.value).abs() < 1e-9,
                "{a:?}: {ceil} vs {}",
                s.value
            );
            let b = brute_value(&a);
            assert!(
                (b - s.value).abs() < 1e-9,
                "{a:?}: brute {b} vs {}",
                s.value
            );
        }
    }
}
