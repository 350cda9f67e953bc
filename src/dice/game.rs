//! Zero-sum games between two players' choices: the kernel's one solver
//! (the simplex method on the payoff matrix, checked against brute force),
//! and the one way a mixed strategy is drawn ([`Mix`]: cumulative marks on
//! a uniform draw, so the same dice always pick the same choice).

use super::Roller;

/// A solved zero-sum game: the row player maximises.
#[derive(Clone, Debug, PartialEq)]
pub struct Equilibrium {
    /// The value.
    pub value: f64,
    /// The row player's optimal mixed strategy.
    pub rows: Vec<f64>,
    /// The column player's optimal mixed strategy.
    pub cols: Vec<f64>,
}

const EPS: f64 = 1e-12;

/// Solves the game with payoff `a[i][j]` to the row player, exactly by the
/// simplex method on the small matrix (Bland's rule, so it cannot cycle).
/// With the matrix shifted positive (`b`), the column player's strategy
/// scaled by the value solves `max 1.w : b w <= 1, w >= 0`, and the row
/// player's is that programme's dual, read off the final tableau's slack
/// columns.
pub fn solve_zero_sum(a: &[Vec<f64>]) -> Equilibrium {
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
    Equilibrium {
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

/// How [`Mix::of_probabilities`] puts a cumulative probability on a unit of
/// `2^bits` marks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rounding {
    /// Up: a draw `u` reaches the mark exactly when `u / 2^bits` is not
    /// below the cumulative probability (the comparison of a uniform draw
    /// in [0, 1) with it, done on whole numbers).
    Up,
    /// To the nearest mark: each choice within `2^-bits` of its probability.
    Nearest,
}

/// A mixed strategy laid out for drawing: the cumulative marks of its
/// choices on a unit, the last choice played at the unit. A uniform draw
/// `u` in `[0, unit)` picks the number of marks it reaches, so a choice of
/// probability 0 is never picked and the last choice played takes any
/// rounding's remainder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mix {
    marks: Vec<u64>,
}

impl Mix {
    /// Whole-number weights, exact: the unit is their sum.
    pub fn of_weights(weights: &[u32]) -> Mix {
        let mut total = 0u64;
        let marks = weights
            .iter()
            .map(|&w| {
                total += u64::from(w);
                total
            })
            .collect();
        Mix { marks }
    }

    /// Probabilities on a unit of `2^bits`, each cumulative probability
    /// rounded to its mark as `rounding` says.
    pub fn of_probabilities(p: &[f64], bits: u32, rounding: Rounding) -> Mix {
        let unit = 1u64 << bits;
        let scale = unit as f64;
        let last = p.iter().rposition(|q| *q > 0.0).unwrap_or(0);
        let mut acc = 0.0;
        let marks = p
            .iter()
            .enumerate()
            .map(|(i, q)| {
                acc += q;
                if i >= last {
                    return unit;
                }
                let mark = match rounding {
                    Rounding::Up => (acc * scale).ceil(),
                    Rounding::Nearest => (acc * scale).round(),
                };
                mark.clamp(0.0, scale) as u64
            })
            .collect();
        Mix { marks }
    }

    /// The marks, the last the unit.
    pub fn marks(&self) -> &[u64] {
        &self.marks
    }

    /// The choice a draw `u` in `[0, unit)` picks.
    #[inline]
    pub fn pick(&self, u: u64) -> usize {
        self.marks.iter().filter(|&&c| u >= c).count()
    }

    /// A choice drawn on dice: one die of the unit's sides where the unit
    /// fits one, else (a unit of `2^(16 k)`) `k` 16-bit dice, the first
    /// the highest digit.
    pub fn draw<R: Roller>(&self, dice: &mut R) -> usize {
        let unit = *self.marks.last().expect("a strategy has a choice");
        let u = match u32::try_from(unit) {
            Ok(sides) => u64::from(dice.roll(sides) - 1),
            Err(_) => {
                let bits = unit.trailing_zeros();
                assert!(
                    unit.is_power_of_two() && bits.is_multiple_of(16),
                    "a unit past one die is drawn in 16-bit digits"
                );
                (0..bits / 16).fold(0u64, |x, _| (x << 16) | u64::from(dice.roll(1 << 16) - 1))
            }
        };
        self.pick(u)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{BatchedRoller, enumerate, solve_linear};

    /// A uniform draw in [0, 1) from 48 bits of dice.
    fn uniform(r: &mut BatchedRoller) -> f64 {
        let mut x = 0u64;
        for _ in 0..3 {
            x = (x << 16) | u64::from(r.roll(1 << 16) - 1);
        }
        x as f64 / (1u64 << 48) as f64
    }

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
                let Some(sol) = solve_linear(eq, 1e-12) else {
                    continue;
                };
                if sol[..k].iter().any(|x| x[0] < -1e-12) {
                    continue;
                }
                let mut x = vec![0.0; m];
                for (i, &r) in rs.iter().enumerate() {
                    x[r] = sol[i][0];
                }
                let (floor, _) = guarantees(a, &x, &vec![1.0 / n as f64; n]);
                best = best.max(floor);
            }
        }
        best
    }

    #[test]
    fn known_games() {
        // matching pennies: value 0, both 1/2
        let s = solve_zero_sum(&[vec![1.0, -1.0], vec![-1.0, 1.0]]);
        assert!(s.value.abs() < 1e-12);
        assert!((s.rows[0] - 0.5).abs() < 1e-12 && (s.cols[0] - 0.5).abs() < 1e-12);
        // rock-paper-scissors
        let s = solve_zero_sum(&[
            vec![0.0, -1.0, 1.0],
            vec![1.0, 0.0, -1.0],
            vec![-1.0, 1.0, 0.0],
        ]);
        assert!(s.value.abs() < 1e-12);
        assert!(s.rows.iter().all(|x| (x - 1.0 / 3.0).abs() < 1e-12));
        // a saddle point: row 1, column 0, value 2
        let s = solve_zero_sum(&[vec![1.0, 5.0], vec![2.0, 3.0]]);
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
            let s = solve_zero_sum(&a);
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

    /// What a row strategy guarantees: the worst column against it.
    fn best_response_value(a: &[Vec<f64>], x: &[f64]) -> f64 {
        guarantees(a, x, &vec![0.0; a[0].len()]).0
    }

    /// 3 x 3 games against a brute search over the row player's strategies
    /// on a grid of step 1/60: no grid strategy guarantees more than the
    /// solved value, and the solved strategy guarantees it.
    #[test]
    fn equilibrium_beats_a_brute_search_over_a_grid() {
        let mut seed = 7u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) % 13) as f64 - 6.0
        };
        let mut games: Vec<Vec<Vec<f64>>> = (0..40)
            .map(|_| {
                vec![
                    vec![next(), next(), next()],
                    vec![next(), next(), next()],
                    vec![next(), next(), next()],
                ]
            })
            .collect();
        // a game where uniform is not the equilibrium: rock-paper-scissors
        // with one payoff doubled
        games.push(vec![
            vec![0.0, -1.0, 2.0],
            vec![1.0, 0.0, -1.0],
            vec![-1.0, 1.0, 0.0],
        ]);
        for a in games {
            let Equilibrium {
                value: v,
                rows: x,
                cols: y,
            } = solve_zero_sum(&a);
            assert!((x.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            assert!((y.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            assert!((best_response_value(&a, &x) - v).abs() < 1e-9, "{a:?}");
            let mut brute = f64::NEG_INFINITY;
            for i in 0..=60 {
                for j in 0..=60 - i {
                    let g = [i as f64 / 60.0, j as f64 / 60.0, (60 - i - j) as f64 / 60.0];
                    brute = brute.max(best_response_value(&a, &g));
                }
            }
            assert!(brute <= v + 1e-9, "grid {brute} beats solved {v} in {a:?}");
            // and the column player's strategy holds every row to v
            let (_, worst) = guarantees(&a, &x, &y);
            assert!((worst - v).abs() < 1e-9);
        }
    }

    /// A mix of 1/4, 0, 1/2, 1/4, 0 by hand: marks at 2^30 (twice: the
    /// choice of 0 is skipped), 3 x 2^30, then 2^32 for the last choice
    /// played and the one after it; every 32-bit draw picks a choice
    /// played, each over a quarter, a half, a quarter of the draws.
    #[test]
    fn mixes_pick_by_marks() {
        let q = 1u64 << 30;
        let t = Mix::of_probabilities(&[0.25, 0.0, 0.5, 0.25, 0.0], 32, Rounding::Nearest);
        assert_eq!(t.marks(), [q, q, 3 * q, 4 * q, 4 * q]);
        for (u, want) in [
            (0, 0),
            (q - 1, 0),
            (q, 2),
            (3 * q - 1, 2),
            (3 * q, 3),
            (4 * q - 1, 3),
        ] {
            assert_eq!(t.pick(u), want, "{u}");
        }
        // a pure strategy on the second choice
        let t = Mix::of_probabilities(&[0.0, 1.0, 0.0], 32, Rounding::Nearest);
        assert!((0..4).all(|k| t.pick(k * q + 7) == 1));
        // rounded up or to the nearest: 1/3 is 0x5555_5555.55 of 2^32
        let third = [1.0 / 3.0, 2.0 / 3.0];
        let up = Mix::of_probabilities(&third, 32, Rounding::Up);
        let nearest = Mix::of_probabilities(&third, 32, Rounding::Nearest);
        assert_eq!(up.marks()[0], 0x5555_5556);
        assert_eq!(nearest.marks()[0], 0x5555_5555);
    }

    /// Marks rounded up on 48 bits pick what comparing the uniform draw
    /// `x / 2^48` with the cumulative probabilities picks (the first choice
    /// whose sum is above it, else the last played), at every mark, either
    /// side of it, and at random draws.
    #[test]
    fn marks_rounded_up_are_the_comparison_with_a_uniform_draw() {
        let by_comparison = |p: &[f64], x: u64| {
            let u = x as f64 / (1u64 << 48) as f64;
            let mut acc = 0.0;
            for (i, q) in p.iter().enumerate() {
                acc += q;
                if u < acc {
                    return i;
                }
            }
            p.iter().rposition(|q| *q > 0.0).unwrap_or(0)
        };
        let mut r = BatchedRoller::new(5, &[1]);
        let strategies: [&[f64]; 4] = [
            &[1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0],
            &[0.1, 0.0, 0.2, 0.7, 0.0],
            &[0.0, 1.0],
            &[0.6180339887498949, 0.1, 0.2819660112501051],
        ];
        for p in strategies {
            let mix = Mix::of_probabilities(p, 48, Rounding::Up);
            let mut draws: Vec<u64> = (0..10_000).map(|_| r.next_word() >> 16).collect();
            for &m in mix.marks() {
                draws.extend([m.saturating_sub(1), m, m + 1].map(|x| x.min((1 << 48) - 1)));
            }
            for x in draws {
                assert_eq!(mix.pick(x), by_comparison(p, x), "{p:?} at {x}");
            }
        }
    }

    /// Whole-number weights drawn on one die of their sum pick what the
    /// weights walked in order pick (a roll of 1 to w0 the first, then the
    /// next w1 ...), for every face.
    #[test]
    fn weights_draw_one_die_of_their_sum() {
        for weights in [[1, 1, 1], [1, 2, 1], [2, 0, 5], [0, 3, 0]] {
            let mix = Mix::of_weights(&weights);
            let law = enumerate(64, |d| mix.draw(d)).unwrap();
            let sum: u32 = weights.iter().sum();
            for (i, &w) in weights.iter().enumerate() {
                let p: f64 = law.iter().filter(|(c, _)| *c == i).map(|x| x.1).sum();
                let want = f64::from(w) / f64::from(sum);
                assert!((p - want).abs() < 1e-15, "{weights:?}: {i}: {p} vs {want}");
            }
            // two rollers on one stream, in step
            let mut r = BatchedRoller::new(3, &[u64::from(sum)]);
            let mut walk = BatchedRoller::new(3, &[u64::from(sum)]);
            for _ in 0..1000 {
                let mut face = walk.roll(sum);
                let walked = weights
                    .iter()
                    .position(|&w| {
                        let hit = face <= w;
                        face = face.saturating_sub(w);
                        hit
                    })
                    .unwrap();
                assert_eq!(mix.draw(&mut r), walked, "{weights:?}");
            }
        }
    }

    /// A unit of 2^48 draws three 16-bit dice, the first the highest.
    #[test]
    fn a_unit_past_one_die_draws_16_bit_digits() {
        let mix = Mix::of_probabilities(&[0.5, 0.5], 48, Rounding::Up);
        // two rollers on one stream, in step
        let mut r = BatchedRoller::new(4, &[0]);
        let mut digits = BatchedRoller::new(4, &[0]);
        for _ in 0..100 {
            let high = digits.roll(1 << 16) - 1;
            digits.roll(1 << 16);
            digits.roll(1 << 16);
            assert_eq!(mix.draw(&mut r), usize::from(high >= 1 << 15));
            assert_eq!(r.roll(1000), digits.roll(1000), "three dice consumed");
        }
    }
}
