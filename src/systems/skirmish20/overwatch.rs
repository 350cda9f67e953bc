//! The `overwatch` scenario: figures on Overwatch fire at one assaulter on
//! its way in, and, if it gets there, its close assault. Its parameters,
//! the rule ([`Overwatch`], a [`Mechanic`]: the charge's D6, each
//! overwatcher's firings, then `close_combat`'s blows and aftermath) and
//! its builder, in one module named after it.
//!
//! TURN SEQUENCE: "As each squad is drawn it may either use it's action
//! points or reserve them in one of 2 ways, (overwatch or Timed assault)".
//! OVERWATCH: "Squad does nothing until one or more targets move across
//! their line of sight. They may interrupt these units movement and fire
//! upon them, (max 2AP's)." ASSAULT: "If using AP's to charge into contact
//! with an opponent then the opponent may react as follows :- If the target
//! (or any other squad in line of sight) is on OVERWATCH then they may fire
//! at the assaulting squad on the way in. If the Target only is on TIMED
//! ASSAULT then they may fire on the assaulting squad on the way in."
//! Overwatch gives no modifier of its own (the -1/-2 is for a target
//! whose card "has not been drawn yet": `shooting`'s
//! `assaulted_before_turn`), and heavy weapons fire.
//!
//! What stops the assaulter: dead; a Duck Back ("the target must spend the
//! rest of this turn cowering behind cover ... may not ... move other than
//! to take cover"; Necrons, Tyranids, war droids and Enhanced Nervous
//! System ignore it); its charge falling short ("1 AP buys you 1D6" of
//! movement. roll the dice see how far you can move up to"; "You have to
//! determine at the beginning of your phase how many dice will be for
//! movement"). A wound does not ("character may still move and fire but at
//! a reduced ability"), and a wounded figure fights as well as another in
//! close combat (the Close Combat chart has no modifier for it), but a
//! second wound kills.

use super::chart::Armour;
use super::close::{AttackerParams, CloseCombat, CloseRule, CloseState, DefenderParams};
use super::fire::{Figure, Firer, Roll, Toughness, read_d20, roll_effect};
use super::shared_params::{FirerParams, ShotParams, TargetParams};
use crate::dice::{Metric, MetricSink, Roller};
use crate::engine::step_model::{Mechanic, StepModel};
use crate::systems::{
    MetricDecl, MetricList, Model, ParamError, ParamGroup, Params, Refusal, Scenario,
};

/// The `overwatch` scenario: what it asks, its parameters and metrics, its
/// builder, test points, bad inputs and naive loop.
pub const OVERWATCH_SCENARIO: Scenario = Scenario {
    name: "overwatch",
    about: "figures on Overwatch fire at an assaulter on its way in: P(it is stopped before reaching combat), then its close assault",
    seed_section: "TURN SEQUENCE; OVERWATCH; ASSAULT; ACTION POINTS; RANGED COMBAT WEAPONS FACTOR CHART; CLOSE COMBAT",
    params: OverwatchParams::decls,
    metrics: || METRICS.to_vec(),
    build,
    variants: &[],
    test_points: &[
        &[
            ("overwatchers", "2"),
            ("weapon", "laser_assault_rifle"),
            ("range", "10"),
            ("armour", "std"),
            ("charge_d6", "2"),
            ("charge_distance", "6"),
            ("attacker", "aliens_claws"),
            ("attacker_armour", "std"),
            ("attacker_ignores_duck_backs", "true"),
            ("attacker_aftermath", "plus_one"),
            ("defender", "shoulder_weapon"),
            ("defender_armour", "std"),
        ],
        &[
            ("weapon", "heavy_bolter"),
            ("range", "12"),
            ("armour", "storm"),
            ("charge_d6", "1"),
            ("charge_distance", "4"),
            ("attacker", "power_weapon"),
            ("attacker_armour", "storm"),
            ("attacker_kind", "hero"),
            ("defender", "hand_weapon"),
            ("defender_armour", "std"),
            ("defender_kind", "hero"),
        ],
        &[
            ("overwatchers", "3"),
            ("weapon", "bolt_pistol"),
            ("range", "8"),
            ("armour", "power"),
            ("target_cover", "cover"),
            ("charge_d6", "3"),
            ("charge_distance", "9"),
            ("attacker", "necron_warrior"),
            ("attacker_armour", "power"),
            ("attacker_ignores_duck_backs", "true"),
            ("defender", "power_weapon"),
            ("defender_armour", "std"),
            ("defender_martial_arts", "true"),
        ],
    ],
    refusals: &[
        Refusal {
            what: "an overwatcher that moved",
            point: 0,
            set: &[("moved_d6", "1")],
            unset: &[],
            field: "moved_d6",
            words: &["does nothing until"],
        },
        Refusal {
            what: "the assaulter's movement said by hand",
            point: 0,
            set: &[("target_cover", "moving")],
            unset: &[],
            field: "target_cover",
            words: &["charge_d6"],
        },
        Refusal {
            what: "a tank assaulting",
            point: 0,
            set: &[("armour", "tank")],
            unset: &[],
            field: "armour",
            words: &["can not do close assaults"],
        },
        Refusal {
            what: "a walker assaulting",
            point: 0,
            set: &[("attacker", "walker")],
            unset: &[],
            field: "attacker_squash",
            words: &["Vehicle Damage Table"],
        },
        Refusal {
            what: "a walker charged",
            point: 0,
            set: &[("defender", "walker")],
            unset: &[],
            field: "defender_squash",
            words: &["Vehicle Damage Table"],
        },
        Refusal {
            what: "no charge distance",
            point: 0,
            set: &[],
            unset: &["charge_distance"],
            field: "charge_distance",
            words: &["missing"],
        },
    ],
    naive: crate::systems::skirmish20::naive::OVERWATCH,
};

/// The assaulter's charge and the fire it meets.
pub struct Overwatch {
    /// Figures on Overwatch (or a target on Timed Assault), each firing
    /// the same weapon.
    pub overwatchers: u32,
    /// One overwatcher: its weapon and AP ("max 2AP's").
    pub firer: Firer,
    /// The chart value against the assaulter's armour (`None`: X).
    pub value: Option<u8>,
    /// The missile's lock-on number against it ("Rolle the L-xx number or
    /// less on 1D20 to lock on"; failing, "the 2AP's have been spent and
    /// the missile is not fired").
    pub lock_on: Option<u8>,
    /// Modifiers when the assaulter moved no more than 3".
    pub modifier: i32,
    /// Modifiers when it moved more: "Target Moving >3"" -2 (not twice with
    /// cover: one -2).
    pub modifier_fast: i32,
    /// D6 of the charge: 1D6" an AP.
    pub charge_d6: u32,
    /// Inches to the figure charged.
    pub distance: u32,
    /// What a hit does to the assaulter.
    pub toughness: Toughness,
    /// The close assault on arrival: one attacker.
    pub close: CloseRule,
}

/// The charge so far.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct OverwatchState {
    /// The charge's D6 reach the figure charged.
    reaches: bool,
    /// It moved more than 3" (the fire is at a target moving >3").
    fast: bool,
    /// The overwatcher firing now has jammed (or lost) its weapon.
    stopped: bool,
    /// Some overwatcher's D20 showed 20.
    jammed: bool,
    /// Penetrating hits on the assaulter.
    hits: u8,
    /// The assaulter on its way in.
    assaulter: Figure,
    /// It reached combat.
    arrived: bool,
    /// The close assault.
    close: CloseState,
}

/// Every metric.
pub const METRICS: [MetricDecl; 12] = [
    MetricDecl::probability(
        "p_stopped",
        "P(assaulter stopped)",
        "P(the assaulter does not reach combat: shot dead, ducked back, or its charge fell short)",
    ),
    MetricDecl::probability(
        "p_shot_dead",
        "P(shot dead on the way in)",
        "P(the overwatch fire kills the assaulter)",
    ),
    MetricDecl::probability(
        "p_ducked_back",
        "P(ducks back)",
        "P(the assaulter survives the fire but ducks back: it may move only to take cover)",
    ),
    MetricDecl::probability(
        "p_fell_short",
        "P(charge falls short)",
        "P(neither dead nor ducked back, but its charge's D6 fall short of the distance)",
    ),
    MetricDecl::probability(
        "p_arrives_wounded",
        "P(arrives wounded)",
        "P(the assaulter reaches combat wounded: a second wound kills)",
    ),
    MetricDecl::mean(
        "mean_hits",
        "mean hits on the assaulter",
        "expected penetrating hits on the assaulter on its way in",
    ),
    MetricDecl::probability(
        "p_jam",
        "P(an overwatcher's 20)",
        "P(some overwatcher rolls an unmodified 20: jam or worse)",
    ),
    MetricDecl::probability(
        "p_defender_dead",
        "P(defender dead)",
        "P(the figure charged is dead after the assault)",
    ),
    MetricDecl::probability(
        "p_defender_wounded",
        "P(defender wounded)",
        "P(the figure charged is alive and wounded after the assault)",
    ),
    MetricDecl::probability(
        "p_assaulter_dead",
        "P(assaulter dead)",
        "P(the assaulter is dead: shot on the way in or struck in the assault)",
    ),
    MetricDecl::probability(
        "p_defender_runs",
        "P(defender runs 2D6\")",
        "P(the figure charged tests after the assault and rolls 1-3)",
    ),
    MetricDecl::probability(
        "p_assaulter_runs",
        "P(assaulter runs 2D6\")",
        "P(the assaulter tests after the assault and rolls 1-3)",
    ),
];

/// The charge with its metric handles.
pub struct OverwatchRule {
    o: Overwatch,
    shots: usize,
    list: MetricList,
    m: [Metric; 12],
}

impl Overwatch {
    /// The charge with its metric handles.
    pub fn into_rule(self) -> OverwatchRule {
        let mut list = MetricList::new();
        let m = METRICS.each_ref().map(|d| list.add(d));
        OverwatchRule {
            shots: self.firer.shots(false) as usize,
            o: self,
            list,
            m,
        }
    }
}

impl OverwatchRule {
    fn fire_steps(&self) -> usize {
        self.o.overwatchers as usize * self.shots
    }

    /// The assaulter is out of the fire: dead or ducked back.
    fn down(st: &OverwatchState) -> bool {
        st.assaulter.dead || st.assaulter.ducked
    }

    /// One firing of the overwatcher firing now.
    fn fire<R: Roller>(&self, shot: usize, dice: &mut R, st: &mut OverwatchState) {
        if shot == 0 {
            st.stopped = false;
        }
        if st.stopped || Self::down(st) {
            return;
        }
        let o = &self.o;
        if let Some(l) = o.lock_on
            && dice.roll(20) > u32::from(l)
        {
            return;
        }
        let m = if st.fast { o.modifier_fast } else { o.modifier };
        match read_d20(dice.roll(20), o.value, m, true) {
            // "On an unmodified roll of 20 on 1D20 most weapons "Jam""
            Roll::Jam => {
                st.stopped = true;
                st.jammed = true;
            }
            Roll::Hit { .. } => {
                st.hits += 1;
                let e = roll_effect(dice, o.toughness);
                st.assaulter.take(e, o.toughness);
            }
            Roll::Miss => {}
        }
    }
}

impl Mechanic for OverwatchRule {
    type State = OverwatchState;

    fn start(&self) -> OverwatchState {
        OverwatchState::default()
    }

    fn steps(&self) -> usize {
        1 + self.fire_steps() + 1 + self.o.close.steps()
    }

    fn step<R: Roller>(&self, i: usize, dice: &mut R, st: &mut OverwatchState) {
        let fire = self.fire_steps();
        if i == 0 {
            // "1 AP buys you 1D6" of movement. roll the dice see how far you
            // can move up to"
            let moved: u32 = (0..self.o.charge_d6).map(|_| dice.d6()).sum();
            st.reaches = moved >= self.o.distance;
            st.fast = moved.min(self.o.distance) > 3;
        } else if i <= fire {
            self.fire((i - 1) % self.shots, dice, st);
        } else if i == fire + 1 {
            st.arrived = st.reaches && !Self::down(st);
            st.stopped = false;
            if st.arrived {
                st.close = CloseState::arriving(st.assaulter);
            }
        } else if st.arrived {
            self.o.close.step(i - fire - 2, dice, &mut st.close);
        }
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, st: &OverwatchState, sink: &mut impl MetricSink) {
        let [
            stopped,
            shot,
            ducked,
            short,
            wounded,
            hits,
            jam,
            dd,
            dw,
            ad,
            druns,
            aruns,
        ] = self.m;
        let a = st.assaulter;
        let t = self.o.toughness;
        sink.record(stopped, u64::from(!st.arrived));
        sink.record(shot, u64::from(a.dead));
        sink.record(ducked, u64::from(!a.dead && a.ducked));
        sink.record(short, u64::from(!Self::down(st) && !st.reaches));
        sink.record(wounded, u64::from(st.arrived && a.wounded(t)));
        sink.record(hits, u64::from(st.hits));
        sink.record(jam, u64::from(st.jammed));
        let c = &st.close;
        let d = self.o.close_defender();
        sink.record(dd, u64::from(st.arrived && c.defender().dead));
        sink.record(dw, u64::from(st.arrived && c.defender().wounded(d)));
        sink.record(ad, u64::from(a.dead || (st.arrived && c.attacker().dead)));
        let (d_runs, a_runs) = c.runs();
        sink.record(druns, u64::from(st.arrived && d_runs));
        sink.record(aruns, u64::from(st.arrived && a_runs));
    }
}

impl Overwatch {
    fn close_defender(&self) -> Toughness {
        self.close.defender_toughness()
    }
}

crate::param_struct! {
    /// Parameters of the scenario.
    pub struct OverwatchParams {
        overwatchers: i64 = int(1, 12)
            .default("1")
            .about("figures on Overwatch firing at the assaulter, each with the weapon given (\"the target (or any other squad in line of sight)\"; a target on Timed Assault fires the same way)")
            .seed("ASSAULT"),
        ..shot: ShotParams,
        charge_d6: i64 = int(1, 4)
            .default("2")
            .about("AP the assaulter spends charging, 1D6\" each, rolled together; moving more than 3\" is -2 to hit it")
            .seed("ACTION POINTS; MOVEMENT"),
        charge_distance: i64 = int(1, 24)
            .required()
            .about("inches from the assaulter to the figure it charges: a charge whose D6 fall short stops short")
            .seed("ACTION POINTS"),
        ..attacker: AttackerParams,
        ..defender: DefenderParams,
    }
}

/// Builds the model.
pub fn build(p: &Params, _v: &Params) -> Result<Box<dyn Model>, ParamError> {
    let p = OverwatchParams::read(p)?;
    let target = &p.shot.target;
    // "Squad does nothing until one or more targets move across their line
    // of sight"
    if p.shot.firer.moved_d6 > 0 {
        return Err(ParamError::new(
            crate::param_name!(FirerParams.moved_d6),
            "on Overwatch a squad \"does nothing until one or more targets move across their line of sight\": it has not moved",
        ));
    }
    if target.target_cover == "moving" {
        return Err(ParamError::new(
            crate::param_name!(TargetParams.target_cover),
            "the assaulter's movement is its charge's: charge_d6 and charge_distance say whether it moves more than 3\" (target_cover: none or cover)",
        ));
    }
    // "APC's and Tanks can not do close assaults of any sort whatsoever"
    if target.armour == Armour::Tank || p.attacker.attacker_armour == Armour::Tank {
        let field = if target.armour == Armour::Tank {
            crate::param_name!(TargetParams.armour)
        } else {
            crate::param_name!(AttackerParams.attacker_armour)
        };
        return Err(ParamError::new(
            field,
            "tank armour is a vehicle's, and \"APC's and Tanks can not do close assaults of any sort whatsoever\"",
        ));
    }
    let attacker = p.attacker.fighter()?;
    let defender = p.defender.fighter()?;
    if attacker.squash {
        return Err(ParamError::new(
            crate::param_name!(AttackerParams.attacker_squash),
            "a walker assaulting is a vehicle: hits on it roll on the Vehicle Damage Table, not modelled here (shooting with target_vehicle = true)",
        ));
    }
    if defender.squash {
        return Err(ParamError::new(
            crate::param_name!(DefenderParams.defender_squash),
            "a walker charged is a vehicle: hits on it roll on the Vehicle Damage Table (close_combat with defender = \"walker\")",
        ));
    }
    let firer = p.shot.firer()?;
    firer.check()?;
    let mut mods = p.shot.modifiers(false);
    let modifier = mods.total();
    mods.target_moving = true;
    let modifier_fast = mods.total();
    let toughness = attacker.toughness;
    let close = CloseCombat {
        attackers: 1,
        attacker,
        defender,
        defender_vehicle: None,
        defender_strikes: true,
    }
    .into_rule();
    let o = Overwatch {
        overwatchers: p.overwatchers as u32,
        value: firer.row.cells[target.armour.column()].target,
        lock_on: firer.row.cells[target.armour.column()].lock_on,
        firer,
        modifier,
        modifier_fast,
        charge_d6: p.charge_d6 as u32,
        distance: p.charge_distance as u32,
        toughness,
        close,
    };
    Ok(Box::new(StepModel::new(o.into_rule())))
}

#[cfg(test)]
mod tests {

    /// The sentences this module and its readings quote are the seed's.
    #[test]
    fn the_quoted_rules_are_the_seeds() {
        crate::systems::seed_text::assert_quoted(
            super::super::SEED,
            &[
                "They may interrupt these units movement and fire upon them, (max 2AP's)",
                "is on OVERWATCH then they may fire at the assaulting squad on the way in",
                "If the Target only is on TIMED ASSAULT then they may fire on the assaulting squad on the way in",
                "Squad does nothing until one or more targets move across their line of sight",
                "You have to determine at the beginning of your phase how many dice will be for movement",
                "1 AP buys you 1D6\" of movement. roll the dice see how far you can move up to",
                "Target Moving >3\" or Under Cover",
                "Or move other than to take cover",
                "character may still move and fire but at a reduced ability",
                "APC's and Tanks can not do close assaults of any sort whatsoever",
            ],
        );
    }
}
