//! The attack type and the defence type are choices made against each
//! other (Chapter 4, Steps 2 and 4): a zero-sum game whose payoff is the
//! expected wounds (or P(a wound)) of every attack against every defence,
//! solved by the kernel's [`solve_zero_sum`] and each side's optimal mix
//! drawn by the kernel's [`Mix`].
//! The `per_ap` payoff plays each pair as a whole fight over the
//! attacker's AP ([`super::fight`]): attacks at 1 AP, extra wounds at 2, 3,
//! ... AP, broken weapons and free attacks included, the expected wounds
//! divided by the AP.

use super::close::{Exchange, SituationParams, choices};
use super::fast::{ExchangeFaces, record_counts};
use super::fight::{Plan, PlanParams, WithPerApPayoff};
use crate::dice::{
    BatchedRoller, Equilibrium, Metric, MetricSink, Mix, Roller, Rounding, Tally, solve_zero_sum,
};
use crate::engine::outcome_model::{OutcomeModel, Outcomes};
use crate::systems::{
    MetricDecl, MetricDef, MetricList, Model, ParamError, ParamGroup, Params, Sampler,
};
use crate::systems::{Refusal, Scenario};

/// The `close_combat_game` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const CLOSE_COMBAT_GAME_SCENARIO: Scenario = Scenario {
    name: "close_combat_game",
    about: "attack type against defence type as a zero-sum game: optimal mixed strategies and the value",
    seed_section: "Chapter 4: Step 2 (Choose an attack), Step 4 (Choose defense type)",
    params: GameParams::decls,
    metrics: metric_catalog,
    build,
    variants: &[
        "seven_plus",
        "critical_pass",
        "deflect_break",
        "counter_roll",
    ],
    test_points: TEST_POINTS,
    refusals: &[
        Refusal {
            what: "a unit misspelt",
            point: 0,
            set: &[("attacker", "average_jo")],
            unset: &[],
            field: "attacker",
            words: &["did you mean 'average_joe'"],
        },
        Refusal {
            what: "a fight's AP in a one-attack game",
            point: 0,
            set: &[("attacker_ap", "4")],
            unset: &[],
            field: "attacker_ap",
            words: &["per_ap"],
        },
    ],
    naive: crate::systems::krygothic::naive::CLOSE_COMBAT_GAME,
};

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

crate::param_struct! {
    /// Parameters of the game scenario: both sides and the situation,
    /// the payoff, and a fight's plan for the `per_ap` payoff (which
    /// needs both AP budgets).
    pub struct GameParams {
        ..situation: SituationParams,
        payoff: String = choice(&["mean_wounds", "p_wound", "per_ap"])
            .default("mean_wounds")
            .about("what the attacker maximises and the defender minimises: one attack's expected wounds or P(wound), or per_ap: a whole fight's expected wounds per AP (AP costs, broken weapons and free attacks included)")
            .seed("Step 4: Defender: Choose defense type; Multiple wounds"),
        ..plan: PlanParams<WithPerApPayoff>,
    }
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
    equilibrium: Equilibrium,
    /// Each side's mix drawn on 48 bits of dice, a draw compared with its
    /// cumulative probabilities.
    draws: [Mix; 2],
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

impl Outcomes for GameRule {
    type Out = Play;

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn sample<R: Roller>(&self, dice: &mut R) -> Play {
        let attack = self.draws[0].draw(dice);
        let defence = self.draws[1].draw(dice);
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
        for (attack, px) in self.equilibrium.rows.iter().enumerate() {
            for (defence, py) in self.equilibrium.cols.iter().enumerate() {
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

/// The game sampled step by step: the attack and the defence each drawn
/// from its optimal mix (half a word each: a step's exact law, the mix
/// being the game's answer, not a law of dice), then the pair's attack on
/// its [`ExchangeFaces`]; the plays counted and recorded once each. Where
/// the payoff is a whole fight (`per_ap`) or a pair's tables do not apply,
/// the rule rolls on real dice ([`OutcomeModel`]).
struct GameFaces {
    /// Each side's mix on a half word (32 bits), rounded to the nearest.
    rows: Mix,
    cols: Mix,
    defences: usize,
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
        let (rows, cols) = (&rule.equilibrium.rows, &rule.equilibrium.cols);
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
            rows: Mix::of_probabilities(rows, 32, Rounding::Nearest),
            cols: Mix::of_probabilities(cols, 32, Rounding::Nearest),
            defences: cols.len(),
            pairs,
            plays,
        })
    }

    /// Trials counted by their play (four histograms side by side).
    fn count(&self, roller: &mut BatchedRoller, trials: u64) -> Vec<u64> {
        let mut counts = vec![0u64; 4 * self.plays.len()];
        let defences = self.defences;
        for t in 0..trials {
            // pure strategies on both sides need no draw: a draw of 0
            // picks the one choice played
            let w = if self.pure { 0 } else { roller.next_word() };
            let attack = self.rows.pick(w & 0xffff_ffff);
            let defence = self.cols.pick(w >> 32);
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
pub fn plans<N>(
    plan: &PlanParams<N>,
    fight: &super::close::Fight,
    attacks: &[(super::close::Attack, &str)],
    defences: &[(super::close::Defence, &str)],
) -> Result<Vec<Vec<Plan>>, ParamError> {
    attacks
        .iter()
        .map(|(a, _)| {
            defences
                .iter()
                .map(|(d, _)| plan.plan(*fight, *a, *d))
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
    let p = GameParams::read(p)?;
    let mut fight = p.situation.fight(v)?;
    // every defence is in the game, the counter attack among them
    fight.counter_roll = super::close::counter_roll(v, true)?;
    let payoff = match p.payoff.as_str() {
        "p_wound" => Payoff::PWound,
        "per_ap" => Payoff::PerAp,
        _ => Payoff::MeanWounds,
    };
    if let (true, Some(name)) = (payoff != Payoff::PerAp, p.plan.first_given()) {
        return Err(ParamError::new(
            name,
            "a fight's parameter: only with payoff = \"per_ap\" (one attack's payoff spends no AP)",
        ));
    }
    let (attacks, defences) = choices(&fight);
    let exchanges = exchanges(&fight, &attacks, &defences);
    let (plans, matrix) = if payoff == Payoff::PerAp {
        let plans = plans(&p.plan, &fight, &attacks, &defences)?;
        let matrix = per_ap_matrix(&plans);
        (Some(plans), matrix)
    } else {
        let m = payoff_matrix(&exchanges, payoff == Payoff::PWound);
        (None, m)
    };
    let equilibrium = solve_zero_sum(&matrix);
    let draws =
        [&equilibrium.rows, &equilibrium.cols].map(|p| Mix::of_probabilities(p, 48, Rounding::Up));
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
        equilibrium,
        draws,
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
}
