//! The attack type and the defence type are choices made against each
//! other (Chapter 4, Steps 2 and 4): a zero-sum game whose payoff is the
//! expected wounds (or P(a wound)) of every attack against every defence.
//! Solved exactly by the simplex method on the small matrix (Bland's rule,
//! so it cannot cycle), checked against brute force over every square
//! sub-game (Shapley-Snow kernels) and by the optimality certificate.
//! The `per_ap` payoff plays each pair as a whole fight over the
//! attacker's AP ([`super::fight`]): attacks at 1 AP, extra wounds at 2, 3,
//! ... AP, broken weapons and free attacks included, the expected wounds
//! divided by the AP.

use super::close::{Exchange, choices, fight_of, situation_params};
use super::fast::{ExchangeFaces, record_counts, threshold};
use super::fight::{Plan, plan_of, plan_params};
use crate::dice::{BatchedRoller, Metric, MetricSink, Roller, Tally};
use crate::engine::outcome_model::{OutcomeModel, Outcomes};
use crate::systems::ParamDecl;
use crate::systems::{MetricDecl, MetricDef, MetricList, Model, ParamError, Params, Sampler};

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
pub const METRICS: [MetricDecl; 5] = [
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
        "P(attacker plays {k})",
        "the attacker's optimal mixed strategy: how often it plays attack k",
    ),
    MetricDecl::probability(
        "defence={k}",
        "P(defender plays {k})",
        "the defender's optimal mixed strategy: how often it plays defence k",
    ),
    MetricDecl::mean(
        "value_wounds_per_ap",
        "game value (wounds per AP)",
        "payoff per_ap: expected wounds of a whole fight over the attacker's AP, divided by those AP, under both optimal mixed strategies",
    ),
];

/// What the attacker maximises and the defender minimises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Payoff {
    /// Expected wounds of one attack (every extra wound's AP paid).
    MeanWounds,
    /// P(at least one wound) of one attack.
    PWound,
    /// Expected wounds of a fight over the attacker's AP, per AP.
    PerAp,
}

/// Parameters of the game scenario.
pub fn params() -> Vec<ParamDecl> {
    let mut p = situation_params();
    p.push(
        ParamDecl::choice("payoff", &["mean_wounds", "p_wound", "per_ap"])
            .default("mean_wounds")
            .about("what the attacker maximises and the defender minimises: one attack's expected wounds or P(wound), or per_ap: a whole fight's expected wounds per AP (AP costs, broken weapons and free attacks included)")
            .seed("Step 4: Defender: Choose defense type; Multiple wounds"),
    );
    // a fight's parameters are used only with the per-AP payoff, which
    // needs both AP budgets
    p.extend(plan_params(false).into_iter().map(|d| {
        let name = d.name.clone();
        ["attacker_ap", "defender_ap"]
            .into_iter()
            .filter(|n| *n != name)
            .fold(d.needs("payoff", "per_ap"), |d, n| d.needs_any(n, "4"))
    }));
    p
}

/// The scenario's metric catalogue.
pub fn metric_catalog() -> Vec<MetricDecl> {
    METRICS.to_vec()
}

/// The game between two stat lines: optimal mixes played out.
pub struct GameRule {
    exchanges: Vec<Vec<Exchange>>,
    /// The whole fights of the `per_ap` payoff.
    plans: Option<Vec<Vec<Plan>>>,
    solution: Solution,
    payoff: Payoff,
    list: MetricList,
    value: Metric,
    attacks: Vec<Metric>,
    defences: Vec<Metric>,
}

/// One play: the attack and defence drawn, and the wounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Play {
    attack: usize,
    defence: usize,
    wounds: u8,
    /// `per_ap`: the wounds count towards the value (a draw of 1 in the
    /// AP, so the value's mean is the wounds per AP).
    share: bool,
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
        match &self.plans {
            Some(plans) => {
                let plan = &plans[attack][defence];
                let wounds = plan.roll(dice).def_wounds;
                let share = dice.roll(u32::from(plan.attacker_ap)) == 1;
                Play {
                    attack,
                    defence,
                    wounds,
                    share,
                }
            }
            None => Play {
                attack,
                defence,
                wounds: self.exchanges[attack][defence].roll(dice).wounds,
                share: false,
            },
        }
    }

    fn law(&self) -> Vec<(Play, f64)> {
        let mut out = Vec::new();
        for (attack, px) in self.solution.rows.iter().enumerate() {
            for (defence, py) in self.solution.cols.iter().enumerate() {
                if *px == 0.0 || *py == 0.0 {
                    continue;
                }
                let play = |wounds, share| Play {
                    attack,
                    defence,
                    wounds,
                    share,
                };
                if let Some(plans) = &self.plans {
                    let plan = &plans[attack][defence];
                    let q = 1.0 / f64::from(plan.attacker_ap);
                    for (s, p) in plan.law() {
                        out.push((play(s.def_wounds, true), px * py * p * q));
                        out.push((play(s.def_wounds, false), px * py * p * (1.0 - q)));
                    }
                    continue;
                }
                for (o, p) in self.exchanges[attack][defence].law() {
                    out.push((play(o.wounds, false), px * py * p));
                }
            }
        }
        out
    }

    fn record(&self, o: &Play, sink: &mut impl MetricSink) {
        let v = match self.payoff {
            Payoff::PWound => u64::from(o.wounds > 0),
            Payoff::MeanWounds => u64::from(o.wounds),
            Payoff::PerAp => u64::from(if o.share { o.wounds } else { 0 }),
        };
        sink.record(self.value, v);
        sink.record(self.attacks[o.attack], 1);
        sink.record(self.defences[o.defence], 1);
    }
}

/// A mixed strategy's cumulative probabilities as 32-bit thresholds: a
/// 32-bit draw picks the number of thresholds it reaches. The last choice
/// played takes the rounding's remainder; a choice of probability 0 is
/// never picked.
fn thresholds(p: &[f64]) -> Vec<u64> {
    let last = p.iter().rposition(|q| *q > 0.0).unwrap_or(0);
    let mut acc = 0.0;
    p.iter()
        .enumerate()
        .map(|(i, q)| {
            acc += q;
            if i >= last { 1 << 32 } else { threshold(acc) }
        })
        .collect()
}

/// The choice a 32-bit draw `u` picks.
#[inline]
fn pick_by(thresholds: &[u64], u: u64) -> usize {
    thresholds.iter().filter(|&&c| u >= c).count()
}

/// The game sampled step by step: the attack and the defence each drawn
/// from its optimal mix (half a word each: a step's exact law, the mix
/// being the game's answer, not a law of dice), then the pair's attack on
/// its [`ExchangeFaces`]; the plays counted and recorded once each. Where
/// the payoff is a whole fight (`per_ap`) or a pair's tables do not apply,
/// the rule rolls on real dice ([`OutcomeModel`]).
struct GameFaces {
    rows: Vec<u64>,
    cols: Vec<u64>,
    /// Per attack and defence (`attack * defences + defence`): the pair's
    /// tables and each of its outcomes' play, where the pair is played.
    pairs: Vec<Option<(ExchangeFaces, Vec<u32>)>>,
    plays: Vec<Play>,
    /// One attack and one defence played: no draw of the mixes.
    pure: bool,
}

impl GameFaces {
    fn new(rule: &GameRule) -> Option<Self> {
        if rule.plans.is_some() {
            return None;
        }
        let (rows, cols) = (&rule.solution.rows, &rule.solution.cols);
        let mut plays: Vec<Play> = Vec::new();
        let mut pairs = Vec::new();
        for (attack, px) in rows.iter().enumerate() {
            for (defence, py) in cols.iter().enumerate() {
                if *px == 0.0 || *py == 0.0 {
                    pairs.push(None);
                    continue;
                }
                let faces = ExchangeFaces::new(&rule.exchanges[attack][defence])?;
                let ids = faces
                    .ends()
                    .iter()
                    .map(|o| {
                        let play = Play {
                            attack,
                            defence,
                            wounds: o.wounds,
                            share: false,
                        };
                        match plays.iter().position(|p| *p == play) {
                            Some(i) => i as u32,
                            None => {
                                plays.push(play);
                                plays.len() as u32 - 1
                            }
                        }
                    })
                    .collect();
                pairs.push(Some((faces, ids)));
            }
        }
        let played = |p: &[f64]| p.iter().filter(|q| **q > 0.0).count();
        Some(GameFaces {
            pure: played(rows) == 1 && played(cols) == 1,
            rows: thresholds(rows),
            cols: thresholds(cols),
            pairs,
            plays,
        })
    }

    /// Trials counted by their play (four histograms side by side).
    fn count(&self, roller: &mut BatchedRoller, trials: u64) -> Vec<u64> {
        let mut counts = vec![0u64; 4 * self.plays.len()];
        let defences = self.cols.len();
        for t in 0..trials {
            // pure strategies on both sides need no draw: a draw of 0
            // picks the one choice played
            let w = if self.pure { 0 } else { roller.next_word() };
            let attack = pick_by(&self.rows, w & 0xffff_ffff);
            let defence = pick_by(&self.cols, w >> 32);
            let Some((faces, ids)) = &self.pairs[attack * defences + defence] else {
                unreachable!("a pick of probability 0");
            };
            let play = ids[faces.draw(roller) as usize] as usize;
            counts[4 * play + (t & 3) as usize] += 1;
        }
        counts.chunks_exact(4).map(|c| c.iter().sum()).collect()
    }
}

/// The game's model: [`GameFaces`] where they apply.
pub struct GameModel {
    model: OutcomeModel<GameRule>,
    faces: Option<GameFaces>,
}

impl Model for GameModel {
    fn metrics(&self) -> &[MetricDef] {
        self.model.metrics()
    }

    fn plan(&self, trials: u64) {
        self.model.plan(trials);
    }

    fn run_chunk(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        let Some(f) = &self.faces else {
            return self.model.run_chunk(roller, trials, tally);
        };
        let counts = f.count(roller, trials);
        record_counts(self.model.rule(), &f.plays, &counts, trials, tally);
    }

    fn sampler(&self) -> Sampler {
        if self.faces.is_some() {
            Sampler::Custom("mixes then exchange face tables (each step's dice a face index)")
        } else {
            self.model.sampler()
        }
    }

    fn run_reference(&self, roller: &mut BatchedRoller, trials: u64, tally: &mut Tally) {
        self.model.run_reference(roller, trials, tally);
    }

    fn exact(&self) -> Option<Vec<f64>> {
        self.model.exact()
    }

    fn sample_one(&self, roller: &mut BatchedRoller, values: &mut [u64]) {
        self.model.sample_one(roller, values);
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

/// The whole fights of every attack against every defence.
pub fn plans(
    p: &Params,
    fight: &super::close::Fight,
    attacks: &[(super::close::Attack, &str)],
    defences: &[(super::close::Defence, &str)],
) -> Result<Vec<Vec<Plan>>, ParamError> {
    attacks
        .iter()
        .map(|(a, _)| {
            defences
                .iter()
                .map(|(d, _)| plan_of(p, *fight, *a, *d))
                .collect()
        })
        .collect()
}

/// The `per_ap` payoff matrix: each fight's expected wounds per AP.
pub fn per_ap_matrix(plans: &[Vec<Plan>]) -> Vec<Vec<f64>> {
    plans
        .iter()
        .map(|row| {
            row.iter()
                .map(|plan| plan.mean_defender_wounds() / f64::from(plan.attacker_ap))
                .collect()
        })
        .collect()
}

/// Builds the game model.
pub fn build(p: &Params, v: &Params) -> Result<Box<dyn Model>, ParamError> {
    let mut fight = fight_of(p, v)?;
    // every defence is in the game, the counter attack among them
    fight.counter_roll = super::close::counter_roll(v, true)?;
    let payoff = match p.need_word("payoff")?.as_str() {
        "p_wound" => Payoff::PWound,
        "per_ap" => Payoff::PerAp,
        _ => Payoff::MeanWounds,
    };
    let fight_param = plan_params(false).into_iter().find(|d| p.has(&d.name));
    if let (true, Some(d)) = (payoff != Payoff::PerAp, fight_param) {
        return Err(ParamError::new(
            d.name,
            "a fight's parameter: only with payoff = \"per_ap\" (one attack's payoff spends no AP)",
        ));
    }
    let (attacks, defences) = choices(&fight);
    let exchanges = exchanges(&fight, &attacks, &defences);
    let (plans, matrix) = if payoff == Payoff::PerAp {
        let plans = plans(p, &fight, &attacks, &defences)?;
        let matrix = per_ap_matrix(&plans);
        (Some(plans), matrix)
    } else {
        let m = payoff_matrix(&exchanges, payoff == Payoff::PWound);
        (None, m)
    };
    let solution = solve(&matrix);
    let mut list = MetricList::new();
    let value = list.add(match payoff {
        Payoff::PWound => &METRICS[1],
        Payoff::MeanWounds => &METRICS[0],
        Payoff::PerAp => &METRICS[4],
    });
    let attacks = list.family(&METRICS[2], attacks.iter().map(|x| x.1));
    let defences = list.family(&METRICS[3], defences.iter().map(|x| x.1));
    let rule = GameRule {
        exchanges,
        plans,
        solution,
        payoff,
        list,
        value,
        attacks,
        defences,
    };
    let faces = GameFaces::new(&rule);
    Ok(Box::new(GameModel {
        model: OutcomeModel::new(rule),
        faces,
    }))
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
    &[
        ("attacker", "average_joe"),
        ("attacker_cc", "3"),
        ("attacker_ranged_weapon", "true"),
        ("defender", "average_joe"),
        ("defender_ranged_weapon", "true"),
        ("payoff", "per_ap"),
        ("attacker_ap", "5"),
        ("defender_ap", "3"),
        ("charged", "true"),
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

    /// The game's fast sampler at fixed seeds, on the registry's test
    /// points with a P(wound) payoff (the third, `per_ap`, rolls on real
    /// dice): every metric that is a probability (P(wound), each attack's
    /// and each defence's share of the plays) held to the exact value by
    /// Bernstein's bound, Bonferroni over the metrics.
    #[test]
    fn mixes_then_exchange_faces_follow_the_law() {
        use crate::engine::MetricKind;
        use crate::systems::krygothic::fast::check::bernstein;
        use crate::systems::{ParamValue, Params};
        for (i, point) in TEST_POINTS.iter().enumerate() {
            let mut p = Params::new();
            for (k, v) in point.iter() {
                p.set(*k, ParamValue::from_text(v));
            }
            if !point.iter().any(|(k, _)| *k == "payoff") {
                p.set("payoff", ParamValue::from_text("p_wound"));
            }
            let model = crate::systems::krygothic::RULES
                .build("close_combat_game", &p, &Params::new())
                .expect("a test point builds");
            let per_ap = point.contains(&("payoff", "per_ap"));
            assert_eq!(
                model.sampler()
                    == Sampler::Custom(
                        "mixes then exchange face tables (each step's dice a face index)"
                    ),
                !per_ap,
                "test point {i}"
            );
            if per_ap {
                continue;
            }
            let exact = model.exact().expect("exact");
            let trials = 1_000_000u64;
            let mut tally = Tally::new(model.metrics().len());
            let mut roller = BatchedRoller::new(9, &[i as u64]);
            model.run_chunk(&mut roller, trials, &mut tally);
            let delta = 1e-6 / model.metrics().len() as f64;
            for (m, def) in model.metrics().iter().enumerate() {
                if def.kind != MetricKind::Probability {
                    continue;
                }
                let n = trials as f64;
                let got = tally.sum(m) as f64;
                let bound = bernstein(n, exact[m], delta);
                assert!(
                    (got - n * exact[m]).abs() <= bound,
                    "test point {i}, {}: {got} vs {}",
                    def.name,
                    n * exact[m]
                );
            }
        }
    }

    /// A mix of 1/4, 0, 1/2, 1/4, 0 by hand: thresholds at 2^30 (twice:
    /// the choice of 0 is skipped), 3 x 2^30, then 2^32 for the last
    /// choice played and the one after it; every 32-bit draw picks a
    /// choice played, each over a quarter, a half, a quarter of the draws.
    #[test]
    fn mixes_pick_by_thresholds() {
        let q = 1u64 << 30;
        let t = thresholds(&[0.25, 0.0, 0.5, 0.25, 0.0]);
        assert_eq!(t, vec![q, q, 3 * q, 4 * q, 4 * q]);
        for (u, want) in [
            (0, 0),
            (q - 1, 0),
            (q, 2),
            (3 * q - 1, 2),
            (3 * q, 3),
            (4 * q - 1, 3),
        ] {
            assert_eq!(pick_by(&t, u), want, "{u}");
        }
        // a pure strategy on the second choice
        let t = thresholds(&[0.0, 1.0, 0.0]);
        assert!((0..4).all(|k| pick_by(&t, k * q + 7) == 1));
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
