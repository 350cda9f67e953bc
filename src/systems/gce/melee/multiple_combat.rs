//! The `multiple_combat` scenario: one warrior Charged by several, who
//! fight it one after another in one Hand-to-Hand phase (seed: "Multiple
//! Combats"; "Downed Warriors and Multiple Combatant Situations"). The rule
//! ([`Outnumbered`], a [`Mechanic`]), its metrics, parameters and builder.

use super::duel::{Duel, Fight};
use super::fighter::{Fighter, Nerve};
use super::hand_to_hand::check_leadership;
use super::params::{FighterParams, FighterRole, SEQUENCE, second_weapon};
use super::round::{ClashLaws, Outcome, StrikeLaws};
use super::weapons::SecondWeapon;
use crate::dice::{Extremes, Metric, MetricSink, Roller};
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
    seed_section: "Hand-to-Hand Combat, Multiple Combats; Downed Warriors and Multiple Combatant Situations; Special rules: Psychology (Fear, Terror, Stupidity, Hatred, Frenzy)",
    params: OutnumberedParams::decls,
    metrics: || OUTNUMBERED_METRICS.to_vec(),
    build: build_outnumbered,
    variants: &[
        "second_weapon",
        "multiple_first_round",
        "multiple_fear_tests",
    ],
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
        // psychology (issue 27): Fear-causing attackers, a Stupid and
        // Hating defender that causes Fear itself against Terror
        &[
            ("a_ws", "3"),
            ("a_bs", "3"),
            ("a_attacks", "1"),
            ("a_initiative", "3"),
            ("a_strength", "3"),
            ("a_toughness", "3"),
            ("a_wounds", "1"),
            ("a_leadership", "6"),
            ("a_causes", "terror"),
            ("a_stupid", "true"),
            ("b_ws", "4"),
            ("b_bs", "3"),
            ("b_attacks", "1"),
            ("b_initiative", "3"),
            ("b_strength", "4"),
            ("b_toughness", "3"),
            ("b_wounds", "2"),
            ("b_leadership", "7"),
            ("b_causes", "fear"),
            ("b_stupid", "true"),
            ("b_hatred", "true"),
            ("b_weapons", "choppa"),
            ("attackers", "3"),
            ("attackers_charged", "true"),
        ],
    ],
    refusals: &[
        Refusal {
            what: "no Attack Dice",
            point: 0,
            set: &[("a_attacks", "0")],
            unset: &[],
            field: "a_attacks",
            words: &["would roll no Attack Dice"],
        },
        Refusal {
            what: "a Fear test without Leadership",
            point: 0,
            set: &[("b_causes", "fear")],
            unset: &[],
            field: "a_leadership",
            words: &["Fear"],
        },
        Refusal {
            what: "Stupidity without Leadership",
            point: 0,
            set: &[("b_stupid", "true")],
            unset: &[],
            field: "b_leadership",
            words: &["Stupid"],
        },
    ],
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
///
/// Psychology ("Special rules: Psychology") as the one-on-one fight plays
/// it ([`Duel`]'s own steps), warrior by warrior: each attacker that
/// charges a Fear-causing defender tests ("Failing results in the Warrior
/// standing still": it does not fight, and the next to fight is the
/// "second attacker"); the defender tests against each charging attacker
/// that causes Fear or Terror ([`FearTests`]); a Stupid attacker tests at
/// the start of its fight, the Stupid defender once for the phase ("At the
/// start of each Hand-to-Hand Combat Phase"), its D6 then holding against
/// every attacker; Hatred re-rolls in every fight of the phase, all in the
/// "first turn of combat"; Frenzy doubles Attacks before the bonus dice
/// and cancels the rest ("Frenzied Warriors ignore Fear, Terror,
/// Stupidity, and Hatred").
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
    /// Whom the defender's Fear and Terror tests hold against.
    pub fear_tests: FearTests,
}

crate::variant_enum! {
    /// The lone defender's Fear and Terror tests in a multiple combat
    /// ("When an enemy that causes Fear declares a Charge the Warrior must
    /// take a Leadership Test. If they pass they fight as normal, if not
    /// they fight as if their Weapon Skill was halved"; Terror: "ends up in
    /// Hand-to-Hand Combat with whatever caused it").
    #[derive(Default)]
    pub enum FearTests = "multiple_fear_tests" {
        /// A test for each attacker's charge, holding in the fight with
        /// that attacker ("with whatever caused it").
        #[default]
        EachCharge = "each_charge",
        /// One test, at the first charge, holding for the whole phase (the
        /// one-on-one fight's reading: the effect lasts the combat).
        Once = "once",
    }
    about: "The lone defender's Fear and Terror tests in a multiple combat: one at each attacker's charge, holding in the fight with that attacker ('each_charge': \"When an enemy that causes Fear declares a Charge the Warrior must take a Leadership Test\"; Terror: \"ends up in Hand-to-Hand Combat with whatever caused it\"), or one at the first charge for the whole phase ('once')",
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

/// The state of a multiple combat. The psychology's fields come last and
/// stay at their defaults where nobody has any, so a fight without
/// psychology orders and merges its states as before they were added.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Melee {
    defender: Condition,
    current: Condition,
    fought: u8,
    out: u8,
    down: u8,
    winner: Outcome,
    strikes: u8,
    /// Attackers that failed their Fear test and stood still.
    stood: u8,
    /// The current attacker stands still (failed its charge's Fear test).
    standing_still: bool,
    /// The defender failed its Stupidity test this phase.
    defender_restricted: bool,
    /// The defender rolls no Attack Dice this phase (Stupidity's 1-3).
    defender_dazed: bool,
    /// The defender has taken its Fear test (`multiple_fear_tests = once`).
    defender_tested: bool,
    /// The defender's nerve against the current attacker.
    defender_nerve: Nerve,
    /// The current attacker rolls no Attack Dice (Stupidity's 1-3).
    attacker_dazed: bool,
    /// The current attacker failed its Stupidity test (until its charge).
    attacker_restricted: bool,
    /// Both pools, kept between sub-steps while a Hating side may re-roll.
    attacker_roll: Extremes,
    defender_roll: Extremes,
}

/// Sub-steps of one attacker's round: the Stupidity tests, the charge's
/// Fear tests (two sub-steps, so that each enumerates few dice paths), the
/// pools and the winner (three sub-steps, as the one-on-one fight's), the
/// strikes, and settling the attacker's fate.
const MELEE_STEPS: usize = 7;
/// The first sub-step of the pools.
const POOLS: usize = 2;
/// The sub-step of the strikes.
const STRIKES: usize = 5;

/// The multiple combat's model: exact by its steps, sampled by the engine
/// an attacker's round at a time (each one draw from that round's exact
/// law, [`Mechanic::steps_per_draw`]); [`Model::run_reference`] plays the
/// rule on real dice.
pub type OutnumberedModel = StepModel<OutnumberedRule>;

/// Every metric of the multiple-combat scenario.
pub const OUTNUMBERED_METRICS: [MetricDecl; 6] = [
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
        "expected attackers who got to fight before the defender fell (not those that stood still)",
    ),
    MetricDecl::mean(
        "mean_attackers_stood_still",
        "mean attackers that stood still (failed Fear)",
        "expected attackers that failed their Leadership test to charge a defender causing Fear and stood still (\"Failing results in the Warrior standing still\"), counted among those whose turn to fight came before the defender fell",
    ),
];

/// The multiple combat with its metric handles.
pub struct OutnumberedRule {
    fight: Outnumbered,
    /// Each attacker's fight as a one-on-one round: attacker `k` with its
    /// `k` extra Attack Dice and +k, the charge, the first round.
    duels: Vec<Duel>,
    clashes: ClashLaws,
    strike_laws: StrikeLaws,
    list: MetricList,
    metrics: [Metric; 6],
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
        let duels = (0..self.attackers).map(|k| self.duel(k)).collect();
        OutnumberedRule {
            duels,
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

    /// Attacker `k`'s fight as a one-on-one round (the duel's first): "The
    /// second attacker gains an additional Attack Dice and +1 to their
    /// combat score! These bonuses are cumulative" (after Frenzy's
    /// doubling: "double their Attacks characteristic (before any other
    /// multipliers)"); the charge's +1 and Fear tests when the attackers
    /// charged; each side higher up for the first round in the fights
    /// [`FirstRound`] says are the first round.
    fn duel(&self, k: u8) -> Duel {
        let mut a = self.attacker.clone();
        a.armed.bonus_dice += k;
        a.modifier += i32::from(k);
        let mut b = self.defender.clone();
        let first = self.first(k);
        a.higher_up_first_round &= first;
        b.higher_up_first_round &= first;
        Duel {
            a,
            b,
            charger: self.charged.then_some(Outcome::A),
            obstacle: false,
        }
    }
}

impl Melee {
    /// The current attacker's fight as the one-on-one fight's state.
    fn fight(&self) -> Fight {
        Fight {
            a: self.current,
            b: self.defender,
            later: false,
            a_nerve: Nerve::Steady,
            b_nerve: self.defender_nerve,
            charge_failed: self.standing_still,
            a_dazed: self.attacker_dazed,
            b_dazed: self.defender_dazed,
            a_roll: self.attacker_roll,
            b_roll: self.defender_roll,
            winner: self.winner,
            strikes: self.strikes,
        }
    }

    /// What the fight's sub-step changed, back into the melee (the
    /// defender's daze lasts the phase).
    fn take_fight(&mut self, f: &Fight) {
        self.current = f.a;
        self.defender = f.b;
        self.defender_nerve = f.b_nerve;
        self.standing_still = f.charge_failed;
        self.attacker_dazed = f.a_dazed;
        self.attacker_roll = f.a_roll;
        self.defender_roll = f.b_roll;
        self.winner = f.winner;
        self.strikes = f.strikes;
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
            stood: 0,
            standing_still: false,
            defender_restricted: false,
            defender_dazed: false,
            defender_tested: false,
            defender_nerve: Nerve::Steady,
            attacker_dazed: false,
            attacker_restricted: false,
            attacker_roll: Extremes::default(),
            defender_roll: Extremes::default(),
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
        // the fight of the attackers' `fought`-th to fight: one that stood
        // still does not count ("The second attacker gains ...")
        let duel = &self.duels[usize::from(s.fought)];
        match j {
            0 => {
                // Stupidity's Leadership tests: the attacker's at the start
                // of its fight, the defender's once for the phase ("At the
                // start of each Hand-to-Hand Combat Phase")
                s.attacker_restricted = duel.a.fails_stupidity(dice);
                if k == 0 {
                    s.defender_restricted = duel.b.fails_stupidity(dice);
                }
            }
            1 => {
                // the charge's Fear and Terror tests, then the D6 of a
                // failed Stupidity test ("on a 1 - 3 they instead roll no
                // Attack Dice"), in the one-on-one fight's order
                let a_restricted = std::mem::take(&mut s.attacker_restricted);
                let mut fight = s.fight();
                let target_tests = match f.fear_tests {
                    FearTests::EachCharge => {
                        fight.b_nerve = Nerve::Steady;
                        true
                    }
                    FearTests::Once => !s.defender_tested,
                };
                duel.psychology(
                    dice,
                    &mut fight,
                    (a_restricted, s.defender_restricted),
                    target_tests,
                );
                s.take_fight(&fight);
                if !s.standing_still {
                    s.defender_tested |= f.charged;
                    s.attacker_dazed = a_restricted && dice.d6() <= 3;
                }
                if k == 0 {
                    s.defender_dazed = s.defender_restricted && dice.d6() <= 3;
                }
            }
            POOLS..STRIKES => {
                if s.standing_still {
                    return;
                }
                let mut fight = s.fight();
                duel.pools(j - POOLS + 1, dice, &self.clashes, &mut fight);
                s.take_fight(&fight);
            }
            STRIKES => {
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
                if s.standing_still {
                    s.stood += 1;
                } else {
                    match s.current.status {
                        Status::OutOfAction => s.out += 1,
                        Status::Down => s.down += 1,
                        _ => {}
                    }
                    s.fought += 1;
                }
                s.current = f.attacker.stats.fresh();
                s.winner = Outcome::Pending;
                s.strikes = 0;
                s.standing_still = false;
                s.attacker_dazed = false;
                if f.fear_tests == FearTests::EachCharge {
                    s.defender_nerve = Nerve::Steady;
                }
            }
        }
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, s: &Melee, sink: &mut impl MetricSink) {
        let [down_or_out, out, att_out, att_down, fought, stood] = self.metrics;
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
        if o + d == self.fight.attackers - s.stood {
            // the last attacker in the fight fell (those who stood still
            // never joined it): the Downed ones go Out of Action too
            o += d;
            d = 0;
        }
        sink.record(down_or_out, u64::from(s.defender.is_down_or_out()));
        sink.record(out, u64::from(s.defender.status == Status::OutOfAction));
        sink.record(att_out, u64::from(o));
        sink.record(att_down, u64::from(d));
        sink.record(fought, u64::from(n));
        sink.record(stood, u64::from(s.stood));
    }
}

/// Each attacker of a multiple combat (all alike).
#[derive(Clone, Debug)]
pub struct EachAttacker;
impl FighterRole for EachAttacker {
    const WHO: &'static str = "each attacker";
    const PSYCHOLOGY: bool = true;
}

/// The lone defender of a multiple combat.
#[derive(Clone, Debug)]
pub struct LoneDefender;
impl FighterRole for LoneDefender {
    const WHO: &'static str = "the defender";
    const PSYCHOLOGY: bool = true;
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
        FearTests::default(),
    )
}

/// Builds the multiple-combat model.
pub fn build_outnumbered(p: &Params, variants: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = OutnumberedParams::read(p)?;
    Ok(Box::new(outnumbered(
        &p,
        second_weapon(variants)?,
        first_round(variants)?,
        FearTests::read(variants)?,
    )?))
}

fn outnumbered(
    p: &OutnumberedParams,
    second: SecondWeapon,
    first_round: FirstRound,
    fear_tests: FearTests,
) -> Result<OutnumberedModel, ParamError> {
    let fight = Outnumbered {
        attacker: p.a.fighter(second)?,
        defender: p.b.fighter(second)?,
        attackers: p.attackers as u8,
        charged: p.attackers_charged,
        first_round,
        fear_tests,
    };
    // the Leadership the Stupidity and charge tests need, as the
    // one-on-one fight asks for it
    check_leadership(&fight.duel(0))?;
    Ok(fight.into_model())
}

/// The `multiple_first_round` rule variant.
pub(super) fn first_round(variants: &Params) -> Result<FirstRound, ParamError> {
    FirstRound::read(variants)
}
