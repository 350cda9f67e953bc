//! The `hand_to_hand` scenario: two warriors fight one-on-one until one is
//! Out of Action ([`Duel`]). Its metrics, its model (a [`Repeated`] rule:
//! rounds until over), its parameters and its builder.

use super::duel::{BEFORE_STRIKES, Duel, Fight};
use super::params::{FighterParams, FighterRole, SEQUENCE, second_weapon};
use super::round::{ClashLaws, Outcome, StrikeLaws};
use super::weapons::SecondWeapon;
use crate::dice::{Extremes, Metric, MetricSink, Roller};
use crate::engine::repeat_model::{RepeatModel, Repeated, round_metrics};
use crate::systems::gce::melee::fighter::Causes;
use crate::systems::gce::warrior::{Condition, Status, WarriorStats};
use crate::systems::{MetricDecl, MetricList, Model, ParamError, ParamGroup, Params};
use crate::systems::{Refusal, Scenario};

/// The `hand_to_hand` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const HAND_TO_HAND_SCENARIO: Scenario = Scenario {
    name: "hand_to_hand",
    about: "two warriors on foot fight round after round until one is Out of Action: the first round and the whole fight",
    seed_section: "Hand-to-Hand Combat, Steps 0-11; Special rules: Psychology (Fear, Terror, Stupidity, Hatred, Frenzy)",
    params: DuelParams::decls,
    metrics: duel_metric_catalog,
    build: build_duel,
    variants: &["second_weapon"],
    test_points: &[
        &[
            ("a", "grimgutz"),
            ("a_bs", "3"),
            ("a_initiative", "2"),
            ("a_strength", "3"),
            ("a_toughness", "4"),
            ("a_wounds", "1"),
            ("b", "krixit"),
            ("b_bs", "2"),
            ("b_initiative", "3"),
            ("b_strength", "3"),
            ("b_toughness", "3"),
            ("b_wounds", "2"),
            ("b_save", "6"),
        ],
        &[
            ("a_ws", "4"),
            ("a_bs", "3"),
            ("a_attacks", "2"),
            ("a_initiative", "3"),
            ("a_strength", "4"),
            ("a_toughness", "4"),
            ("a_wounds", "2"),
            ("a_weapons", "uge_choppa"),
            ("a_causes", "fear"),
            ("a_hatred", "true"),
            ("b_ws", "3"),
            ("b_bs", "3"),
            ("b_attacks", "1"),
            ("b_initiative", "3"),
            ("b_strength", "3"),
            ("b_toughness", "3"),
            ("b_wounds", "1"),
            ("b_leadership", "7"),
            ("b_weapons", "spear, choppa"),
            ("b_stupid", "true"),
            ("b_higher_up", "true"),
            ("obstacle", "true"),
        ],
        // Frenzy cancels Stupidity and Hatred; Stupidity at
        // Leadership 2; higher up for the first round only (issue
        // 27 items 1, 2, 6)
        &[
            ("a_ws", "3"),
            ("a_bs", "3"),
            ("a_attacks", "1"),
            ("a_initiative", "3"),
            ("a_strength", "3"),
            ("a_toughness", "3"),
            ("a_wounds", "2"),
            ("a_weapons", "choppa"),
            ("a_frenzy", "true"),
            ("a_stupid", "true"),
            ("a_hatred", "true"),
            ("b_ws", "4"),
            ("b_bs", "3"),
            ("b_attacks", "2"),
            ("b_initiative", "3"),
            ("b_strength", "3"),
            ("b_toughness", "3"),
            ("b_wounds", "2"),
            ("b_save", "5"),
            ("b_leadership", "2"),
            ("b_stupid", "true"),
            ("b_higher_up_first_round", "true"),
            ("obstacle", "true"),
        ],
    ],
    refusals: &[
        Refusal {
            what: "WS 11",
            point: 0,
            set: &[("a_ws", "11")],
            unset: &[],
            field: "a_ws",
            words: &["11 is impossible: must be from 0 to 10"],
        },
        Refusal {
            what: "a weapon misspelt",
            point: 0,
            set: &[("a_weapons", "chopa")],
            unset: &[],
            field: "a_weapons",
            words: &["did you mean 'choppa'"],
        },
        Refusal {
            what: "two double-handed weapons",
            point: 0,
            set: &[("a_weapons", "demilune, uge_choppa")],
            unset: &[],
            field: "a_weapons",
            words: &["double-handed"],
        },
        Refusal {
            what: "custom stats without a custom weapon",
            point: 0,
            set: &[("a_weapons", "choppa"), ("a_custom_damage", "D3")],
            unset: &[],
            field: "a_custom_damage",
            words: &["no 'custom' weapon"],
        },
        Refusal {
            what: "a Hatred policy without Hatred",
            point: 0,
            set: &[("a_hatred_policy", "best")],
            unset: &[],
            field: "a_hatred_policy",
            words: &["only used with a_hatred = true"],
        },
        Refusal {
            what: "an obstacle with nobody charging",
            point: 0,
            set: &[("charger", "none"), ("obstacle", "true")],
            unset: &[],
            field: "obstacle",
            words: &["charg"],
        },
        Refusal {
            what: "no Attack Dice",
            point: 0,
            set: &[("a_attacks", "0"), ("a_hands", "1")],
            unset: &[],
            field: "a_attacks",
            words: &["no Attack Dice"],
        },
        Refusal {
            what: "a custom weapon without its Strength",
            point: 0,
            set: &[("a_weapons", "custom"), ("a_custom_damage", "1")],
            unset: &[],
            field: "a_custom_strength",
            words: &[
                "missing: set a_custom_strength",
                "'custom' weapon: Strength",
            ],
        },
        Refusal {
            what: "too many Damage dice",
            point: 0,
            set: &[
                ("a_weapons", "custom"),
                ("a_custom_strength", "AU+1"),
                ("a_custom_damage", "4D6"),
            ],
            unset: &[],
            field: "a_custom_damage",
            words: &["at most 3"],
        },
        Refusal {
            what: "a bad custom Strength",
            point: 0,
            set: &[
                ("a_weapons", "custom"),
                ("a_custom_strength", "strong"),
                ("a_custom_damage", "1"),
            ],
            unset: &[],
            field: "a_custom_strength",
            words: &["AU+1"],
        },
        Refusal {
            what: "a Fear test without Leadership",
            point: 0,
            set: &[
                ("a", "custom"),
                ("a_ws", "3"),
                ("a_attacks", "1"),
                ("a_weapons", "choppa"),
                ("b_causes", "fear"),
            ],
            unset: &[],
            field: "a_leadership",
            words: &["Fear"],
        },
        Refusal {
            what: "an unknown Hatred policy",
            point: 0,
            set: &[("a_hatred", "true"), ("a_hatred_policy", "smart")],
            unset: &[],
            field: "a_hatred_policy",
            words: &["'smart'"],
        },
        Refusal {
            what: "nobody can wound",
            point: 0,
            set: &[
                ("a_strength", "1"),
                ("b_strength", "1"),
                ("a_toughness", "10"),
                ("b_toughness", "10"),
            ],
            unset: &[],
            field: "a_weapons",
            words: &["never ends"],
        },
    ],
    naive: crate::systems::gce::naive::HAND_TO_HAND,
};

/// Every metric of the duel scenario (besides the rounds).
pub const DUEL_METRICS: [MetricDecl; 17] = [
    MetricDecl::probability(
        "p_a_wins",
        "P(A takes B out of action)",
        "P(B is Out of Action when the fight ends)",
    ),
    MetricDecl::probability(
        "p_b_wins",
        "P(B takes A out of action)",
        "P(A is Out of Action when the fight ends)",
    ),
    MetricDecl::probability(
        "p_charge_failed",
        "P(charge fails)",
        "P(the charger fails its Fear test and stands still: no combat)",
    ),
    MetricDecl::probability(
        "p_a_unhurt",
        "P(A ends unhurt)",
        "P(A ends the fight with every Wound and no Flesh Wound)",
    ),
    MetricDecl::probability(
        "p_a_flesh_wounded",
        "P(A ends with a flesh wound)",
        "P(A ends the fight on its feet after at least one Flesh Wound)",
    ),
    MetricDecl::mean(
        "mean_a_wounds_left",
        "mean Wounds A has left",
        "A's expected Wounds at the end (0 when Out of Action)",
    ),
    MetricDecl::probability(
        "p_b_unhurt",
        "P(B ends unhurt)",
        "P(B ends the fight with every Wound and no Flesh Wound)",
    ),
    MetricDecl::probability(
        "p_b_flesh_wounded",
        "P(B ends with a flesh wound)",
        "P(B ends the fight on its feet after at least one Flesh Wound)",
    ),
    MetricDecl::mean(
        "mean_b_wounds_left",
        "mean Wounds B has left",
        "B's expected Wounds at the end (0 when Out of Action)",
    ),
    MetricDecl::probability(
        "p_a_wins_first_round",
        "P(A wins round 1)",
        "P(A wins the first round of combat)",
    ),
    MetricDecl::probability(
        "p_b_wins_first_round",
        "P(B wins round 1)",
        "P(B wins the first round of combat)",
    ),
    MetricDecl::probability(
        "p_stalemate_first_round",
        "P(stalemate in round 1)",
        "P(equal scores and equal Initiative in the first round)",
    ),
    MetricDecl::probability(
        "p_b_out_first_round",
        "P(B out of action in round 1)",
        "P(B is Out of Action after the first round)",
    ),
    MetricDecl::probability(
        "p_a_out_first_round",
        "P(A out of action in round 1)",
        "P(A is Out of Action after the first round)",
    ),
    MetricDecl::probability(
        "a_strikes_first_round={k}",
        "P(A strikes {k} times in round 1)",
        "P(A wins the first round with exactly k strikes; 0 when it does not win)",
    ),
    MetricDecl::probability(
        "b_strikes_first_round={k}",
        "P(B strikes {k} times in round 1)",
        "P(B wins the first round with exactly k strikes; 0 when it does not win)",
    ),
    MetricDecl::mean(
        "mean_a_strikes_first_round",
        "mean strikes by A in round 1",
        "A's expected strikes in the first round (0 when it does not win)",
    ),
];

/// The duel's catalogue with the rounds metrics.
pub fn duel_metric_catalog() -> Vec<MetricDecl> {
    DUEL_METRICS
        .into_iter()
        .chain(round_metrics(DuelRule::ROUND))
        .collect()
}

/// Rounds reported one by one (then "not over after").
const ROUNDS_SHOWN: usize = 12;

/// The duel with its metric handles and dice laws.
pub struct DuelRule {
    duel: Duel,
    clashes: ClashLaws,
    strike_laws: StrikeLaws,
    max_strikes: u8,
    list: MetricList,
    m: DuelMetrics,
}

struct DuelMetrics {
    a_wins: Metric,
    b_wins: Metric,
    charge_failed: Metric,
    a_unhurt: Metric,
    a_flesh: Metric,
    a_wounds: Metric,
    b_unhurt: Metric,
    b_flesh: Metric,
    b_wounds: Metric,
    a_first: Metric,
    b_first: Metric,
    stalemate_first: Metric,
    b_out_first: Metric,
    a_out_first: Metric,
    a_strikes: Vec<Metric>,
    b_strikes: Vec<Metric>,
    mean_a_strikes: Metric,
}

impl Duel {
    /// The duel's model: rounds until one warrior is Out of Action.
    pub fn into_model(self) -> DuelModel {
        let max_strikes = self.max_strikes();
        let mut list = MetricList::new();
        let d = &DUEL_METRICS;
        let m = DuelMetrics {
            a_wins: list.add(&d[0]),
            b_wins: list.add(&d[1]),
            charge_failed: list.add(&d[2]),
            a_unhurt: list.add(&d[3]),
            a_flesh: list.add(&d[4]),
            a_wounds: list.add(&d[5]),
            b_unhurt: list.add(&d[6]),
            b_flesh: list.add(&d[7]),
            b_wounds: list.add(&d[8]),
            a_first: list.add(&d[9]),
            b_first: list.add(&d[10]),
            stalemate_first: list.add(&d[11]),
            b_out_first: list.add(&d[12]),
            a_out_first: list.add(&d[13]),
            a_strikes: list.family(&d[14], 0..=max_strikes),
            b_strikes: list.family(&d[15], 0..=max_strikes),
            mean_a_strikes: list.add(&d[16]),
        };
        let clashes = ClashLaws::up_to(self.max_dice());
        RepeatModel::new(
            DuelRule {
                duel: self,
                clashes,
                strike_laws: StrikeLaws::new(),
                max_strikes,
                list,
                m,
            },
            ROUNDS_SHOWN,
        )
    }
}

/// The duel's model: the chain of rounds, exact by [`RepeatModel`]'s
/// solver and sampled by the engine a round at a time, each round one draw
/// from its exact law ([`Model::run_reference`] plays it on real dice).
pub type DuelModel = RepeatModel<DuelRule>;

impl DuelRule {
    /// The duel.
    pub fn duel(&self) -> &Duel {
        &self.duel
    }
}

fn unhurt(c: &Condition, stats: &WarriorStats) -> bool {
    c.status == Status::Standing && c.wounds_left == stats.wounds
}

impl Repeated for DuelRule {
    type State = Fight;

    const ROUND: &'static str = "rounds";

    fn start(&self) -> Fight {
        self.duel.start()
    }

    fn over(&self, s: &Fight) -> bool {
        s.charge_failed || s.a.status == Status::OutOfAction || s.b.status == Status::OutOfAction
    }

    fn sub_steps(&self) -> usize {
        BEFORE_STRIKES + 1
    }

    fn sub_step<R: Roller>(&self, i: usize, dice: &mut R, s: &mut Fight) {
        let d = &self.duel;
        if s.charge_failed {
            return;
        }
        match i {
            0 => {
                // Stupidity's Leadership test at the start of the turn
                // (reading: one test before every round), then the
                // charge's Fear and Terror tests in the first round.
                let restricted = (d.a.fails_stupidity(dice), d.b.fails_stupidity(dice));
                if !s.later {
                    d.psychology(dice, s, restricted, true);
                }
                if s.charge_failed {
                    return;
                }
                // Restricted: "At the start of each Hand-to-Hand Combat
                // Phase a Warrior suffering from Stupidity must roll a D6
                // ... on a 1 - 3 they instead roll no Attack Dice."
                s.a_dazed = restricted.0 && dice.d6() <= 3;
                s.b_dazed = restricted.1 && dice.d6() <= 3;
            }
            1..BEFORE_STRIKES => d.pools(i, dice, &self.clashes, s),
            _ => {
                let (strikes, laws) = (s.strikes, &self.strike_laws);
                match s.winner {
                    Outcome::A => s.b = laws.land(dice, true, strikes, &d.a, &d.b, s.b, true),
                    Outcome::B => s.a = laws.land(dice, false, strikes, &d.b, &d.a, s.a, true),
                    _ => {}
                }
            }
        }
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, s: &Fight, sink: &mut impl MetricSink) {
        let m = &self.m;
        let (a, b) = (&self.duel.a.stats, &self.duel.b.stats);
        sink.record(m.a_wins, u64::from(s.b.status == Status::OutOfAction));
        sink.record(m.b_wins, u64::from(s.a.status == Status::OutOfAction));
        sink.record(m.charge_failed, u64::from(s.charge_failed));
        sink.record(m.a_unhurt, u64::from(unhurt(&s.a, a)));
        sink.record(m.a_flesh, u64::from(s.a.status == Status::FleshWound));
        sink.record(m.b_unhurt, u64::from(unhurt(&s.b, b)));
        sink.record(m.b_flesh, u64::from(s.b.status == Status::FleshWound));
        let left = |c: &Condition| {
            if c.status == Status::OutOfAction {
                0
            } else {
                u64::from(c.wounds_left)
            }
        };
        sink.record(m.a_wounds, left(&s.a));
        sink.record(m.b_wounds, left(&s.b));
    }

    const FIRST_ROUND: bool = true;

    fn record_first_round(&self, s: &Fight, sink: &mut impl MetricSink) {
        let m = &self.m;
        if s.charge_failed {
            sink.record(m.a_strikes[0], 1);
            sink.record(m.b_strikes[0], 1);
            return;
        }
        sink.record(m.a_first, u64::from(s.winner == Outcome::A));
        sink.record(m.b_first, u64::from(s.winner == Outcome::B));
        sink.record(m.stalemate_first, u64::from(s.winner == Outcome::Stalemate));
        sink.record(m.b_out_first, u64::from(s.b.status == Status::OutOfAction));
        sink.record(m.a_out_first, u64::from(s.a.status == Status::OutOfAction));
        let (a_k, b_k) = match s.winner {
            Outcome::A => (s.strikes, 0),
            Outcome::B => (0, s.strikes),
            _ => (0, 0),
        };
        sink.record(m.a_strikes[usize::from(a_k.min(self.max_strikes))], 1);
        sink.record(m.b_strikes[usize::from(b_k.min(self.max_strikes))], 1);
        sink.record(m.mean_a_strikes, u64::from(a_k));
    }

    fn end_round(&self, s: &mut Fight) {
        s.later = true;
        s.a_dazed = false;
        s.b_dazed = false;
        s.a_roll = Extremes::default();
        s.b_roll = Extremes::default();
        s.winner = Outcome::Pending;
        s.strikes = 0;
    }
}

/// Warrior A of a one-on-one fight.
#[derive(Clone, Debug)]
pub struct SideA;
impl FighterRole for SideA {
    const WHO: &'static str = "A";
    const PSYCHOLOGY: bool = true;
}

/// Warrior B of a one-on-one fight.
#[derive(Clone, Debug)]
pub struct SideB;
impl FighterRole for SideB {
    const WHO: &'static str = "B";
    const PSYCHOLOGY: bool = true;
}

crate::param_struct! {
    /// Parameters of the one-on-one scenario.
    pub struct DuelParams {
        a: FighterParams<SideA> = prefixed("a_"),
        b: FighterParams<SideB> = prefixed("b_"),
        charger: String = choice(&["a", "b", "none"])
            .default("a")
            .about("who charged (+1 in the first round; Fear tests on the charge)")
            .seed(SEQUENCE),
        obstacle: bool = flag()
            .about("the charger crossed an obstacle (-1 in the first round)")
            .seed(SEQUENCE),
    }
}

/// Stupidity's test each turn and the charge's Leadership tests need the
/// tester's Leadership.
pub(super) fn check_leadership(duel: &Duel) -> Result<(), ParamError> {
    for (f, prefix) in [(&duel.a, "a_"), (&duel.b, "b_")] {
        if f.needs_leadership_for_stupidity() && f.leadership.is_none() {
            return Err(ParamError::missing(
                format!("{prefix}leadership"),
                format!(
                    "{prefix}leadership (a Stupid warrior \"must pass a Leadership at the start of each of their turns\")"
                ),
            ));
        }
    }
    let Some(charger) = duel.charger else {
        return Ok(());
    };
    let (chg, tgt, cp, tp) = match charger {
        Outcome::A => (&duel.a, &duel.b, "a_", "b_"),
        _ => (&duel.b, &duel.a, "b_", "a_"),
    };
    for (tester, other, prefix) in [(chg, tgt, cp), (tgt, chg, tp)] {
        if tester.tests_against(other) && tester.leadership.is_none() && tester.hating().is_none() {
            return Err(ParamError::missing(
                format!("{prefix}leadership"),
                format!(
                    "{prefix}leadership is needed: the charge calls for a Leadership test against {}",
                    if other.causes == Causes::Terror {
                        "Terror"
                    } else {
                        "Fear"
                    }
                ),
            ));
        }
    }
    Ok(())
}

/// The one-on-one model from the spec's parameters as given, for tests
/// and benches that need its two samplers: presets are filled in and
/// values checked against [`DuelParams`] here, as the registry does
/// before it builds a scenario.
pub fn duel_model(given: &Params) -> Result<DuelModel, ParamError> {
    let decls = DuelParams::decls();
    let p = crate::systems::gce::RULES
        .resolve(&decls, given)?
        .bound(decls);
    duel(&DuelParams::read(&p)?, SecondWeapon::default())
}

/// Builds the one-on-one model.
pub fn build_duel(p: &Params, variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = DuelParams::read(p)?;
    Ok(Box::new(duel(&p, second_weapon(variants)?)?))
}

fn duel(p: &DuelParams, second: SecondWeapon) -> Result<DuelModel, ParamError> {
    let charger = match p.charger.as_str() {
        "b" => Some(Outcome::B),
        "none" => None,
        _ => Some(Outcome::A),
    };
    let obstacle = p.obstacle;
    if obstacle && charger.is_none() {
        return Err(ParamError::new(
            crate::param_name!(DuelParams.obstacle),
            "only a charger crosses an obstacle: set charger",
        ));
    }
    let duel = Duel {
        a: p.a.fighter(second)?,
        b: p.b.fighter(second)?,
        charger,
        obstacle,
    };
    check_leadership(&duel)?;
    if !duel.can_end() {
        return Err(ParamError::new(
            "a_weapons",
            "neither warrior can wound the other (Wound Chart '-' or no Damage): the fight never ends",
        ));
    }
    Ok(duel.into_model())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::{Replay, StateDist};
    use crate::systems::gce::melee::fighter::HatredPolicy;
    use crate::systems::gce::melee::fighter::warrior;

    fn duel_4v4() -> Duel {
        let mut a = warrior(3, 3, &["choppa"]);
        let mut b = warrior(4, 3, &["choppa"]);
        for f in [&mut a, &mut b] {
            f.stats.wounds = 3;
            f.stats.save = Some(5);
        }
        Duel {
            a,
            b,
            charger: Some(Outcome::A),
            obstacle: false,
        }
    }

    #[test]
    fn fought_to_the_end_matches_rounds_played_out() {
        // the chain solved by elimination against 40 rounds played out state
        // by state (all but 1e-9 of fights end by then)
        for duel in [duel_4v4(), {
            let mut d = duel_4v4();
            d.a.hatred = Some(HatredPolicy::Best);
            d.b.stupid = true;
            d.b.leadership = Some(7);
            d.b.higher_up = true;
            d
        }] {
            let model = duel.into_model();
            let exact = model.exact().unwrap();
            let rule = model.rule();
            let mut d = StateDist::certain(rule.start());
            for _ in 0..40 {
                for i in 0..rule.sub_steps() {
                    d = d
                        .step(1 << 16, |r: &mut Replay, s| {
                            if !rule.over(s) {
                                rule.sub_step(i, r, s)
                            }
                        })
                        .unwrap();
                }
                d = d.step(1, |_: &mut Replay, s| rule.end_round(s)).unwrap();
            }
            let done = d.prob(|s| rule.over(s));
            let a_wins = d.prob(|s| s.b().status == Status::OutOfAction);
            let at = |name: &str| model.metrics().iter().position(|m| m.name == name).unwrap();
            // A's wins within 40 rounds bound the whole fight's from below,
            // and the fights still going from above
            assert!(1.0 - done < 1e-9, "{done}");
            let e = exact[at("p_a_wins")];
            assert!(
                e >= a_wins - 1e-12 && e <= a_wins + (1.0 - done) + 1e-12,
                "{e} vs {a_wins}"
            );
        }
    }

    #[test]
    fn best_hatred_wins_the_first_round_at_least_as_often() {
        let p_first = |policy| {
            let mut d = duel_4v4();
            d.a.hatred = Some(policy);
            let m = d.into_model();
            let e = m.exact().unwrap();
            e[m.metrics()
                .iter()
                .position(|x| x.name == "p_a_wins_first_round")
                .unwrap()]
        };
        let best = p_first(HatredPolicy::Best);
        for p in [
            HatredPolicy::None,
            HatredPolicy::Ones,
            HatredPolicy::AllWhenBehind,
        ] {
            assert!(best >= p_first(p) - 1e-12, "{p:?}");
        }
        assert!(
            best > p_first(HatredPolicy::Ones) + 1e-3,
            "re-rolling more than ones pays"
        );
        assert!(p_first(HatredPolicy::Ones) > p_first(HatredPolicy::None) + 1e-3);
    }
}
