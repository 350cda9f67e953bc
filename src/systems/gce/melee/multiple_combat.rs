//! The `multiple_combat` scenario: one warrior Charged by several, who
//! fight it one after another in one Hand-to-Hand phase (seed: "Multiple
//! Combats"; "Downed Warriors and Multiple Combatant Situations"). The rule
//! ([`Outnumbered`], a [`Mechanic`]), its metrics, parameters and builder.

use super::fighter::Fighter;
use super::params::{FighterParams, FighterRole, SEQUENCE, second_weapon};
use super::round::{ClashLaws, Outcome, Side, StrikeLaws, draw_winner};
use super::weapons::SecondWeapon;
use crate::dice::{Metric, MetricSink, Roller};
use crate::engine::step_model::{Mechanic, StepModel};
use crate::systems::Variant;
use crate::systems::gce::warrior::{Condition, Status};
use crate::systems::{MetricDecl, MetricList, Model, ParamError, ParamGroup, Params};
use crate::systems::{Refusal, Scenario};

/// The `multiple_combat` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const MULTIPLE_COMBAT_SCENARIO: Scenario = Scenario {
    name: "multiple_combat",
    about: "one warrior charged by several, who fight it one after another in one phase (+1 die and +1 score per attacker before)",
    seed_section: "Hand-to-Hand Combat, Multiple Combats; Downed Warriors and Multiple Combatant Situations",
    params: OutnumberedParams::decls,
    metrics: || OUTNUMBERED_METRICS.to_vec(),
    build: build_outnumbered,
    variants: &["second_weapon", "multiple_first_round"],
    test_points: &[
        &[
            ("a_ws", "2"),
            ("a_bs", "3"),
            ("a_attacks", "1"),
            ("a_initiative", "2"),
            ("a_strength", "3"),
            ("a_toughness", "3"),
            ("a_wounds", "1"),
            ("b_ws", "4"),
            ("b_bs", "3"),
            ("b_attacks", "2"),
            ("b_initiative", "3"),
            ("b_strength", "4"),
            ("b_toughness", "4"),
            ("b_wounds", "2"),
            ("b_save", "5"),
            ("b_weapons", "choppa"),
            ("attackers", "3"),
            ("attackers_charged", "true"),
        ],
        // a Fort's defender, higher up for the first round (the
        // phase's only one: issue 27 item 6)
        &[
            ("a_ws", "3"),
            ("a_bs", "3"),
            ("a_attacks", "1"),
            ("a_initiative", "3"),
            ("a_strength", "3"),
            ("a_toughness", "3"),
            ("a_wounds", "1"),
            ("b_ws", "3"),
            ("b_bs", "3"),
            ("b_attacks", "1"),
            ("b_initiative", "3"),
            ("b_strength", "3"),
            ("b_toughness", "3"),
            ("b_wounds", "2"),
            ("b_weapons", "choppa"),
            ("b_higher_up_first_round", "true"),
            ("attackers", "2"),
            ("attackers_charged", "true"),
        ],
    ],
    refusals: &[Refusal {
        what: "no Attack Dice",
        point: 0,
        set: &[("a_attacks", "0")],
        unset: &[],
        field: "a_attacks",
        words: &["would roll no Attack Dice"],
    }],
    naive: crate::systems::gce::naive::MULTIPLE_COMBAT,
};

/// One warrior Charged by several ("Multiple Combats"): the attackers fight
/// it one after another in one Hand-to-Hand phase; "The second attacker
/// gains an additional Attack Dice and +1 to their combat score! These
/// bonuses are cumulative". Downed warriors are not taken Out of Action
/// while their side still fights ("As long as there are still Warriors on
/// both sides in the fight the Downed Warriors are ignored"); "If the last
/// Warrior of one side goes Down or Out of Action then the other Down
/// Warriors from their side will be taken Out of Action too."
#[derive(Clone, Debug)]
pub struct Outnumbered {
    /// Each attacker (all alike).
    pub attacker: Fighter,
    /// The lone defender.
    pub defender: Fighter,
    /// How many attackers.
    pub attackers: u8,
    /// The attackers charged this turn (+1 each in their round).
    pub charged: bool,
    /// Which attackers' fights are the "first round" a higher-up-for-the-
    /// first-round warrior is higher up in.
    pub first_round: FirstRound,
}

crate::variant_enum! {
    /// A multiple combat's "first round" (Forts: "their opponents will count
    /// as being higher up for the first round of Hand-to-Hand Combat"; Multiple
    /// Combats: "Multiple Combat situations are broken down into several
    /// rounds of combat").
    #[derive(Default)]
    pub enum FirstRound = "multiple_first_round" {
        /// The whole phase: every attacker's fight (a round is a turn, as
        /// Charging's "+1 Modifier for that Round. If the combat continues
        /// into another turn then the Modifier no longer applies").
        #[default]
        Phase = "phase",
        /// The first attacker's fight alone (each attacker's fight a round).
        FirstAttacker = "first_attacker",
    }
    about: "A multiple combat's first round, where a warrior 'higher up for the first round' (Forts) is higher up: every attacker's fight of the phase ('phase': a round is a turn, as Charging's \"+1 Modifier for that Round. If the combat continues into another turn then the Modifier no longer applies\") or the first attacker's alone ('first_attacker': \"Multiple Combat situations are broken down into several rounds of combat\")",
}

/// The state of a multiple combat.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Melee {
    defender: Condition,
    current: Condition,
    fought: u8,
    out: u8,
    down: u8,
    winner: Outcome,
    strikes: u8,
}

/// Sub-steps of one attacker's round: both pools and the winner, the
/// strikes, and settling the attacker's fate.
const MELEE_STEPS: usize = 3;

/// The multiple combat's model: exact by its steps, sampled by the engine
/// an attacker's round at a time (each one draw from that round's exact
/// law, [`Mechanic::steps_per_draw`]); [`Model::run_reference`] plays the
/// rule on real dice.
pub type OutnumberedModel = StepModel<OutnumberedRule>;

/// Every metric of the multiple-combat scenario.
pub const OUTNUMBERED_METRICS: [MetricDecl; 5] = [
    // Two readings of "taken out" a reader must not confuse: beaten (Down
    // or Out, the Grodkicka example's "he finally goes Down", and "If the
    // last Warrior of one side goes Down ... the other Down Warriors ...
    // taken Out of Action too") and already Out of Action this phase.
    MetricDecl::probability(
        "p_defender_down_or_out",
        "P(defender beaten: Down or Out of Action)",
        "P(the lone defender is Down or Out of Action by the end of the phase: beaten, what a player means by taking it out; a Down defender stays Down only while its side has others fighting)",
    ),
    MetricDecl::probability(
        "p_defender_out_of_action",
        "P(defender Out of Action now, not just Down)",
        "P(the defender is already Out of Action at the end of the phase; a defender left Down is not counted here but in p_defender_down_or_out)",
    ),
    MetricDecl::mean(
        "mean_attackers_out_of_action",
        "mean attackers out of action",
        "expected attackers Out of Action at the end (Down ones too when every attacker fell)",
    ),
    MetricDecl::mean(
        "mean_attackers_down",
        "mean attackers left Down",
        "expected attackers still Down at the end of the phase",
    ),
    MetricDecl::mean(
        "mean_attackers_fought",
        "mean attackers that fought",
        "expected attackers who got to fight before the defender fell",
    ),
];

/// The multiple combat with its metric handles.
pub struct OutnumberedRule {
    fight: Outnumbered,
    clashes: ClashLaws,
    strike_laws: StrikeLaws,
    list: MetricList,
    metrics: [Metric; 5],
}

impl Outnumbered {
    /// The multiple combat's model.
    pub fn into_model(self) -> OutnumberedModel {
        StepModel::new(self.into_rule())
    }

    /// The multiple combat as a fixed number of steps.
    pub fn into_rule(self) -> OutnumberedRule {
        let n = self.attackers.saturating_sub(1);
        let dice = (self.attacker.attack_dice() + n).max(self.defender.attack_dice());
        let mut list = MetricList::new();
        let metrics = OUTNUMBERED_METRICS.map(|d| list.add(&d));
        OutnumberedRule {
            clashes: ClashLaws::up_to(dice),
            strike_laws: StrikeLaws::new(),
            fight: self,
            list,
            metrics,
        }
    }

    /// Whether the fight of attacker `k` (from 0) is the first round.
    fn first(&self, k: u8) -> bool {
        match self.first_round {
            FirstRound::Phase => true,
            FirstRound::FirstAttacker => k == 0,
        }
    }

    fn attacker_side(&self, k: u8, ws: u8) -> Side {
        Side {
            ws,
            modifier: self.attacker.modifier
                + self.attacker.higher_up_bonus(self.first(k))
                + i32::from(self.charged)
                + i32::from(k),
        }
    }

    fn defender_side(&self, k: u8, ws: u8) -> Side {
        Side {
            ws,
            modifier: self.defender.modifier + self.defender.higher_up_bonus(self.first(k)),
        }
    }
}

impl Mechanic for OutnumberedRule {
    type State = Melee;

    /// An attacker's round (both pools, the strikes, the attacker's fate)
    /// is one draw of the fast sampler.
    fn steps_per_draw(&self) -> usize {
        MELEE_STEPS
    }

    fn start(&self) -> Melee {
        Melee {
            defender: self.fight.defender.stats.fresh(),
            current: self.fight.attacker.stats.fresh(),
            fought: 0,
            out: 0,
            down: 0,
            winner: Outcome::Pending,
            strikes: 0,
        }
    }

    fn steps(&self) -> usize {
        usize::from(self.fight.attackers) * MELEE_STEPS
    }

    fn step<R: Roller>(&self, i: usize, dice: &mut R, s: &mut Melee) {
        let f = &self.fight;
        if s.defender.is_down_or_out() {
            return;
        }
        let k = (i / MELEE_STEPS) as u8;
        let j = i % MELEE_STEPS;
        match j {
            0 => {
                let a = f.attacker_side(k, s.current.ws);
                let b = f.defender_side(k, s.defender.ws);
                let edge = i32::from(a.ws) + a.modifier - i32::from(b.ws) - b.modifier;
                let (na, nb) = (f.attacker.attack_dice() + k, f.defender.attack_dice());
                let on_draw = draw_winner(&f.attacker, &f.defender);
                (s.winner, s.strikes) = self.clashes.clash(dice, edge, na, nb, on_draw);
            }
            1 => {
                let (n, laws) = (s.strikes, &self.strike_laws);
                match s.winner {
                    Outcome::A => {
                        s.defender =
                            laws.land(dice, true, n, &f.attacker, &f.defender, s.defender, false)
                    }
                    Outcome::B => {
                        s.current =
                            laws.land(dice, false, n, &f.defender, &f.attacker, s.current, false)
                    }
                    _ => {}
                }
            }
            _ => {
                match s.current.status {
                    Status::OutOfAction => s.out += 1,
                    Status::Down => s.down += 1,
                    _ => {}
                }
                s.fought += 1;
                s.current = f.attacker.stats.fresh();
                s.winner = Outcome::Pending;
                s.strikes = 0;
            }
        }
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, s: &Melee, sink: &mut impl MetricSink) {
        let [down_or_out, out, att_out, att_down, fought] = self.metrics;
        // the round in which the defender fell ends before its settling
        // step: count the attacker who was fighting
        let (mut o, mut d, mut n) = (s.out, s.down, s.fought);
        if s.defender.is_down_or_out() && s.winner != Outcome::Pending {
            match s.current.status {
                Status::OutOfAction => o += 1,
                Status::Down => d += 1,
                _ => {}
            }
            n += 1;
        }
        if o + d == self.fight.attackers {
            // the last attacker fell: the Downed ones go Out of Action too
            o += d;
            d = 0;
        }
        sink.record(down_or_out, u64::from(s.defender.is_down_or_out()));
        sink.record(out, u64::from(s.defender.status == Status::OutOfAction));
        sink.record(att_out, u64::from(o));
        sink.record(att_down, u64::from(d));
        sink.record(fought, u64::from(n));
    }
}

/// Each attacker of a multiple combat (all alike).
#[derive(Clone, Debug)]
pub struct EachAttacker;
impl FighterRole for EachAttacker {
    const WHO: &'static str = "each attacker";
    const PSYCHOLOGY: bool = false;
}

/// The lone defender of a multiple combat.
#[derive(Clone, Debug)]
pub struct LoneDefender;
impl FighterRole for LoneDefender {
    const WHO: &'static str = "the defender";
    const PSYCHOLOGY: bool = false;
}

crate::param_struct! {
    /// Parameters of the multiple-combat scenario.
    pub struct OutnumberedParams {
        a: FighterParams<EachAttacker> = prefixed("a_"),
        b: FighterParams<LoneDefender> = prefixed("b_"),
        attackers: i64 = int(1, 12)
            .required()
            .about("attackers fighting the lone defender, one after another")
            .seed("Multiple Combats"),
        attackers_charged: bool = flag()
            .about("the attackers charged this turn (+1 each)")
            .seed(SEQUENCE),
    }
}

/// The multiple-combat model from the spec's parameters as given (presets
/// filled in and values checked here, as the registry does).
pub fn outnumbered_model(given: &Params) -> Result<OutnumberedModel, ParamError> {
    let decls = OutnumberedParams::decls();
    let p = crate::systems::gce::RULES
        .resolve(&decls, given)?
        .bound(decls);
    outnumbered(
        &OutnumberedParams::read(&p)?,
        SecondWeapon::default(),
        FirstRound::default(),
    )
}

/// Builds the multiple-combat model.
pub fn build_outnumbered(p: &Params, variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = OutnumberedParams::read(p)?;
    Ok(Box::new(outnumbered(
        &p,
        second_weapon(variants)?,
        first_round(variants)?,
    )?))
}

fn outnumbered(
    p: &OutnumberedParams,
    second: SecondWeapon,
    first_round: FirstRound,
) -> Result<OutnumberedModel, ParamError> {
    let fight = Outnumbered {
        attacker: p.a.fighter(second)?,
        defender: p.b.fighter(second)?,
        attackers: p.attackers as u8,
        charged: p.attackers_charged,
        first_round,
    };
    Ok(fight.into_model())
}

/// The `multiple_first_round` rule variant.
pub(super) fn first_round(variants: &Params) -> Result<FirstRound, ParamError> {
    FirstRound::read(variants)
}
