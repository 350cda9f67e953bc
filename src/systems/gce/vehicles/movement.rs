//! Vehicle movement tests: a run of Thrusts with the Thruster Buster Table
//! and turning while thrusting; an Out of Control vehicle and taking the
//! wheel; and the Strength 3 hazards of warriors near vehicles (getting on
//! or off a moving vehicle, leaping aboard an enemy vehicle, being
//! squashed).

use super::damage::{Size, Vehicle};
use crate::dice::{Metric, MetricSink, Roller};
use crate::engine::repeat_model::{RepeatModel, Repeated};
use crate::engine::step_model::{Mechanic, StepModel};
use crate::systems::gce::tables::{initiative_test, injury, leadership_test};
use crate::systems::gce::warrior::Damage;
use crate::systems::gce::warrior::{Condition, Hit, Status, WarriorStats};
use crate::systems::{MetricDecl, MetricList};

/// Thrusts tried when the driver keeps thrusting "until you either fail a
/// Test": past the second every Thrust needs a 4+ or worse, so the chance
/// of passing this many in a row is below `2^-57`, under the rounding of
/// any probability reported.
pub const UNTIL_FAIL_THRUSTS: u8 = 60;

/// The Thruster Buster Table (Vehicles, Failed Thrust Tests): "1 Spin ...
/// 2 D6” forward and Spin ... 3 Swerve and move D6” forward ... 4+ D6”
/// forward".
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Buster {
    /// 1: "The Vehicle Spins".
    Spin,
    /// 2: "Move the Vehicle D6” forward and then roll a scatter dice".
    ForwardAndSpin,
    /// 3: "Roll a D6 to determine which direction to turn ... Then move the
    /// Vehicle D6” forward."
    Swerve,
    /// 4+: "Move the Vehicle D6” forward."
    Forward,
}

/// Reads the Thruster Buster Table for a D6.
pub fn thruster_buster(d6: u32) -> Buster {
    match d6 {
        1 => Buster::Spin,
        2 => Buster::ForwardAndSpin,
        3 => Buster::Swerve,
        _ => Buster::Forward,
    }
}

/// A driver's Thrusts in one Movement Phase.
#[derive(Clone, Debug)]
pub struct ThrustRun {
    /// The vehicle (its thrust thresholds).
    pub vehicle: Vehicle,
    /// Thrusts declared; [`UNTIL_FAIL_THRUSTS`] for "until one fails".
    pub thrusts: u8,
    /// Whether the driver keeps going until a Test fails.
    pub until_fail: bool,
    /// Inches declared for each Thrust.
    pub inches: u16,
    /// Gas Engine inches moved before thrusting.
    pub gas_engine: u16,
    /// The driver's Leadership when turning after each Thrust.
    pub turn_leadership: Option<u8>,
    /// Inches the move must cover, for P(reaches).
    pub goal: Option<u16>,
}

/// Where the run stands.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Run {
    made: u8,
    stopped: bool,
    distance: u16,
    buster: Option<Buster>,
    turn_failed: bool,
}

/// Every metric of the thrust scenario.
pub const THRUST_METRICS: [MetricDecl; 12] = [
    MetricDecl::mean(
        "mean_distance",
        "mean inches moved",
        "expected inches moved: Gas Engines, successful Thrusts, and the D6\" of a failed test or turn",
    ),
    MetricDecl::mean(
        "mean_thrusts_made",
        "mean Thrusts made",
        "expected successful Thrust Tests",
    ),
    MetricDecl::probability(
        "p_all_thrusts",
        "P(every declared Thrust made)",
        "P(every declared Thrust passes, and every turn)",
    ),
    MetricDecl::probability(
        "p_thruster_buster",
        "P(Thruster Buster)",
        "P(a Thrust Test fails: a roll on the Thruster Buster Table)",
    ),
    MetricDecl::probability(
        "p_buster_spin",
        "P(Thruster Buster: Spin)",
        "P(Thruster Buster 1: the vehicle spins)",
    ),
    MetricDecl::probability(
        "p_buster_forward_spin",
        "P(Thruster Buster: D6\" and Spin)",
        "P(Thruster Buster 2: D6\" forward and spin)",
    ),
    MetricDecl::probability(
        "p_buster_swerve",
        "P(Thruster Buster: Swerve)",
        "P(Thruster Buster 3: swerve and D6\" forward)",
    ),
    MetricDecl::probability(
        "p_buster_forward",
        "P(Thruster Buster: D6\" forward)",
        "P(Thruster Buster 4+: D6\" forward)",
    ),
    MetricDecl::probability(
        "p_turn_failed",
        "P(failed a turn)",
        "P(the driver fails a Leadership Test turning after a Thrust: D6\" forward, move over)",
    ),
    MetricDecl::probability(
        "p_reaches",
        "P(covers the goal distance)",
        "P(the move covers at least the goal's inches)",
    ),
    MetricDecl::probability(
        "thrusts_made={k}",
        "P({k} Thrusts made)",
        "P(exactly k successful Thrusts)",
    ),
    MetricDecl::probability(
        "thrusts_made>{k}",
        "P(more than {k} Thrusts made)",
        "P(more successful Thrusts than the last count shown), when thrusting until a Test fails",
    ),
];

/// The thrust run with its metric handles.
pub struct ThrustRule {
    run: ThrustRun,
    list: MetricList,
    distance: Metric,
    made: Metric,
    all: Option<Metric>,
    buster: [Metric; 5],
    turn_failed: Option<Metric>,
    reaches: Option<Metric>,
    made_k: Vec<Metric>,
}

impl ThrustRun {
    /// The run's model.
    pub fn into_model(self) -> StepModel<ThrustRule> {
        let mut list = MetricList::new();
        let d = &THRUST_METRICS;
        let distance = list.add(&d[0]);
        let made = list.add(&d[1]);
        let all = (!self.until_fail).then(|| list.add(&d[2]));
        let buster = [3, 4, 5, 6, 7].map(|i| list.add(&d[i]));
        let turn_failed = self.turn_leadership.map(|_| list.add(&d[8]));
        let reaches = self.goal.map(|_| list.add(&d[9]));
        let shown = if self.until_fail { 6 } else { self.thrusts };
        let mut made_k = list.family(&d[10], 0..=shown);
        if self.until_fail {
            made_k.push(list.add_k(&d[11], shown));
        }
        StepModel::new(ThrustRule {
            run: self,
            list,
            distance,
            made,
            all,
            buster,
            turn_failed,
            reaches,
            made_k,
        })
    }
}

impl Mechanic for ThrustRule {
    type State = Run;

    fn start(&self) -> Run {
        Run {
            made: 0,
            stopped: false,
            distance: self.run.gas_engine,
            buster: None,
            turn_failed: false,
        }
    }

    fn steps(&self) -> usize {
        usize::from(self.run.thrusts)
    }

    fn step<R: Roller>(&self, i: usize, dice: &mut R, s: &mut Run) {
        if s.stopped {
            return;
        }
        let r = &self.run;
        if dice.d6() >= u32::from(r.vehicle.thrust_needed(i + 1)) {
            s.made += 1;
            s.distance += r.inches;
            // "If you wish to turn then the Driver must pass a Leadership
            // Test ... if they fail then move the Vehicle another D6”
            // forward - that’s the end of its Movement for this turn."
            if let Some(ld) = r.turn_leadership
                && !leadership_test(dice, u32::from(ld))
            {
                s.distance += dice.d6() as u16;
                s.turn_failed = true;
                s.stopped = true;
            }
        } else {
            let b = thruster_buster(dice.d6());
            if b != Buster::Spin {
                s.distance += dice.d6() as u16;
            }
            s.buster = Some(b);
            s.stopped = true;
        }
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, s: &Run, sink: &mut impl MetricSink) {
        sink.record(self.distance, u64::from(s.distance));
        sink.record(self.made, u64::from(s.made));
        if let Some(all) = self.all {
            sink.record(all, u64::from(s.made == self.run.thrusts && !s.turn_failed));
        }
        let [any, spin, fwd_spin, swerve, fwd] = self.buster;
        sink.record(any, u64::from(s.buster.is_some()));
        sink.record(spin, u64::from(s.buster == Some(Buster::Spin)));
        sink.record(
            fwd_spin,
            u64::from(s.buster == Some(Buster::ForwardAndSpin)),
        );
        sink.record(swerve, u64::from(s.buster == Some(Buster::Swerve)));
        sink.record(fwd, u64::from(s.buster == Some(Buster::Forward)));
        if let Some(h) = self.turn_failed {
            sink.record(h, u64::from(s.turn_failed));
        }
        if let (Some(h), Some(goal)) = (self.reaches, self.run.goal) {
            sink.record(h, u64::from(s.distance >= goal));
        }
        let last = self.made_k.len() - 1;
        sink.record(self.made_k[usize::from(s.made).min(last)], 1);
    }
}

/// Why the driver is not at the wheel (Out of Control Vehicles: "A Driver
/// could be Down, thrown overboard, or something else").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DriverState {
    /// Down: "If no one else has taken control and a Driver recovers from
    /// being Down then they automatically bring the Vehicle under control."
    Down,
    /// Thrown overboard or Out of Action: never back this game.
    Gone,
}

/// An Out of Control vehicle and its crew trying to take the wheel.
#[derive(Clone, Debug)]
pub struct OutOfControl {
    /// Small vehicles get one try.
    pub size: Size,
    /// Crew aboard able to try (not Down, Pinned or terrified).
    pub crew_able: u8,
    /// The driver.
    pub driver: DriverState,
}

/// The vehicle's state.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Wheel {
    regained: bool,
    immobilised: bool,
    tried: bool,
    driver_down: bool,
    by_driver: bool,
    adrift: bool,
}

/// Every metric of the out-of-control scenario (besides the turns).
pub const OUT_OF_CONTROL_METRICS: [MetricDecl; 4] = [
    MetricDecl::probability(
        "p_regained",
        "P(back under control)",
        "P(a crew member takes the wheel or the driver recovers)",
    ),
    MetricDecl::probability(
        "p_by_driver",
        "P(the driver recovers it)",
        "P(the Down driver recovers first and brings it under control)",
    ),
    MetricDecl::probability(
        "p_immobilised",
        "P(immobilised)",
        "P(a small vehicle's one try fails: Immobilised, crew thrown D3\" with S3 hits)",
    ),
    MetricDecl::probability(
        "p_adrift",
        "P(never back under control)",
        "P(no one left who can take the wheel: it moves randomly for the rest of the game)",
    ),
];

/// The out-of-control rule with its handles.
pub struct OutOfControlRule {
    oc: OutOfControl,
    list: MetricList,
    m: [Metric; 4],
}

impl OutOfControl {
    /// The model; turn counts up to `shown` reported one by one.
    pub fn into_model(self, shown: usize) -> RepeatModel<OutOfControlRule> {
        let mut list = MetricList::new();
        let m = OUT_OF_CONTROL_METRICS.map(|d| list.add(&d));
        RepeatModel::new(OutOfControlRule { oc: self, list, m }, shown)
    }
}

impl Repeated for OutOfControlRule {
    type State = Wheel;

    const ROUND: &'static str = "turns";

    fn start(&self) -> Wheel {
        Wheel {
            regained: false,
            immobilised: false,
            tried: false,
            driver_down: self.oc.driver == DriverState::Down,
            by_driver: false,
            adrift: false,
        }
    }

    fn over(&self, s: &Wheel) -> bool {
        s.regained || s.immobilised || s.adrift
    }

    fn sub_steps(&self) -> usize {
        2
    }

    /// Movement Phase: one crew member tries for the wheel ("will succeed
    /// on a D6 result of 4+"), else the vehicle swerves and moves D6”;
    /// Recovery Phase: a Down driver rolls on the Injury Table.
    fn sub_step<R: Roller>(&self, i: usize, dice: &mut R, s: &mut Wheel) {
        let oc = &self.oc;
        let may_try = oc.crew_able > 0 && !(oc.size == Size::Small && s.tried);
        match i {
            0 if may_try => {
                s.tried = true;
                if dice.d6() >= 4 {
                    s.regained = true;
                } else if oc.size == Size::Small {
                    // "they only get one attempt. After that it’ll become
                    // Immobilised"
                    s.immobilised = true;
                }
            }
            1 if s.driver_down && !s.regained && !s.immobilised => match injury(dice.d6()) {
                crate::systems::gce::tables::Injury::FleshWound => {
                    s.regained = true;
                    s.by_driver = true;
                }
                crate::systems::gce::tables::Injury::OutOfAction => s.driver_down = false,
                crate::systems::gce::tables::Injury::Down => {}
            },
            _ => {}
        }
        let can_still = s.driver_down || (oc.crew_able > 0 && !(oc.size == Size::Small && s.tried));
        if i == 1 && !s.regained && !s.immobilised && !can_still {
            s.adrift = true;
        }
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, s: &Wheel, sink: &mut impl MetricSink) {
        let [regained, by_driver, immobilised, adrift] = self.m;
        sink.record(regained, u64::from(s.regained));
        sink.record(by_driver, u64::from(s.by_driver));
        sink.record(immobilised, u64::from(s.immobilised));
        sink.record(adrift, u64::from(s.adrift));
    }
}

/// The Strength 3 hazards of warriors and vehicles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hazard {
    /// Squashing: "they may take an Initiative Test ... If they fail to
    /// avoid the Vehicle they take a S3 Hit"; a Down warrior cannot dodge.
    Squash,
    /// Gettin' On or Off a vehicle that "has already moved more than 6” or
    /// used its Thrusters, they must roll 4+ on a D6. If they fail they
    /// will take a Strength 3 Hit".
    GetOnOrOff,
    /// Boarding: "Each Warrior must pass an Initiative Test ... If the
    /// Initiative Test is failed ... they take a S3 Hit as they hit the
    /// ground".
    Board,
}

/// A warrior facing one of the [`Hazard`]s.
#[derive(Clone, Debug)]
pub struct Leap {
    /// Which.
    pub hazard: Hazard,
    /// The warrior.
    pub stats: WarriorStats,
    /// Its Initiative.
    pub initiative: u8,
    /// Already Down (cannot dodge a squashing).
    pub down: bool,
    /// The vehicle moved more than 6" or used its Thrusters (getting on or
    /// off needs the 4+ only then).
    pub vehicle_fast: bool,
}

/// The warrior after the hazard.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Landed {
    avoided: bool,
    unsaved: bool,
    now: Condition,
}

/// Every metric of the hazard scenario.
pub const HAZARD_METRICS: [MetricDecl; 5] = [
    MetricDecl::probability(
        "p_avoided",
        "P(makes it unhurt)",
        "P(the test passes or is not needed: no S3 hit)",
    ),
    MetricDecl::probability(
        "p_flesh_wound",
        "P(flesh wound)",
        "P(the S3 hit leaves a Flesh Wound)",
    ),
    MetricDecl::probability("p_down", "P(down)", "P(Down after the S3 hit)"),
    MetricDecl::probability(
        "p_out_of_action",
        "P(out of action)",
        "P(Out of Action after the S3 hit)",
    ),
    MetricDecl::probability(
        "p_wounded",
        "P(wounded)",
        "P(the S3 hit wounds and is not saved)",
    ),
];

/// The hazard with its handles.
pub struct LeapRule {
    leap: Leap,
    list: MetricList,
    m: [Metric; 5],
}

impl Leap {
    /// The hazard's model.
    pub fn into_model(self) -> StepModel<LeapRule> {
        let mut list = MetricList::new();
        let m = HAZARD_METRICS.map(|d| list.add(&d));
        StepModel::new(LeapRule {
            leap: self,
            list,
            m,
        })
    }
}

impl Mechanic for LeapRule {
    type State = Landed;

    fn start(&self) -> Landed {
        let mut now = self.leap.stats.fresh();
        if self.leap.down {
            now.status = Status::Down;
        }
        Landed {
            avoided: false,
            unsaved: false,
            now,
        }
    }

    fn steps(&self) -> usize {
        2
    }

    fn step<R: Roller>(&self, i: usize, dice: &mut R, s: &mut Landed) {
        let l = &self.leap;
        match i {
            0 => {
                s.avoided = match l.hazard {
                    Hazard::Squash => !l.down && initiative_test(dice, u32::from(l.initiative)),
                    Hazard::Board => initiative_test(dice, u32::from(l.initiative)),
                    Hazard::GetOnOrOff => !l.vehicle_fast || dice.d6() >= 4,
                };
            }
            _ if !s.avoided => {
                let hit = Hit::by_strength(3, Damage::fixed(1));
                s.unsaved = s.now.take_hit(dice, &l.stats, &hit).unsaved;
            }
            _ => {}
        }
    }

    fn metrics(&self) -> &MetricList {
        &self.list
    }

    fn record(&self, s: &Landed, sink: &mut impl MetricSink) {
        let [avoided, flesh, down, out, wounded] = self.m;
        sink.record(avoided, u64::from(s.avoided));
        sink.record(flesh, u64::from(s.now.status == Status::FleshWound));
        sink.record(down, u64::from(s.now.status == Status::Down));
        sink.record(out, u64::from(s.now.status == Status::OutOfAction));
        sink.record(wounded, u64::from(s.unsaved));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::systems::Model;
    use crate::systems::gce::vehicles::damage::test_trukk;

    fn trukk() -> Vehicle {
        test_trukk(Size::Large, "wheels")
    }

    fn value(model: &dyn Model, name: &str) -> f64 {
        let i = model.metrics().iter().position(|m| m.name == name).unwrap();
        model.exact().unwrap()[i]
    }

    /// "their first Thrust is very easy to pass - roll a D6 and on a 2+";
    /// the second 3+, then 4+: P(three Thrusts) = 5/6 * 4/6 * 3/6.
    #[test]
    fn the_trukk_makes_three_thrusts_with_the_product_of_its_thresholds() {
        let model = ThrustRun {
            vehicle: trukk(),
            thrusts: 3,
            until_fail: false,
            inches: 6,
            gas_engine: 6,
            turn_leadership: None,
            goal: Some(24),
        }
        .into_model();
        let all = 5.0 / 6.0 * 4.0 / 6.0 * 3.0 / 6.0;
        assert!((value(&model, "p_all_thrusts") - all).abs() < 1e-15);
        // 24": all three, or two then a failed third whose Thruster
        // Buster is not a Spin and moves a 6
        let two_then_six = 5.0 / 6.0 * 4.0 / 6.0 * 0.5 * (5.0 / 6.0) / 6.0;
        assert!((value(&model, "p_reaches") - (all + two_then_six)).abs() < 1e-15);
        assert!((value(&model, "p_thruster_buster") - (1.0 - all)).abs() < 1e-15);
        // a failure rolls the Thruster Buster Table: 1 in 6 spins on the spot
        assert!(
            (value(&model, "p_buster_spin") - (1.0 - all) / 6.0).abs() < 1e-15,
            "spin"
        );
    }

    /// Until one fails: the mean number made is a geometric tail after the
    /// first two: 5/6 (1 + 4/6 (1 + 1/(1 - 1/2) ... )).
    #[test]
    fn until_one_fails_matches_the_geometric_series() {
        let model = ThrustRun {
            vehicle: trukk(),
            thrusts: UNTIL_FAIL_THRUSTS,
            until_fail: true,
            inches: 6,
            gas_engine: 0,
            turn_leadership: None,
            goal: None,
        }
        .into_model();
        // E[made] = P(1st) + P(1st,2nd) + P(1st,2nd) * sum_k (1/2)^k
        let p12 = 5.0 / 6.0 * 4.0 / 6.0;
        let want = 5.0 / 6.0 + p12 + p12 * 1.0;
        assert!((value(&model, "mean_thrusts_made") - want).abs() < 1e-12);
        assert!((value(&model, "p_thruster_buster") - 1.0).abs() < 1e-12);
    }

    #[test]
    fn a_large_vehicle_keeps_trying_a_small_one_tries_once() {
        let large = OutOfControl {
            size: Size::Large,
            crew_able: 1,
            driver: DriverState::Gone,
        }
        .into_model(4);
        assert!((value(&large, "p_regained") - 1.0).abs() < 1e-12);
        assert!((value(&large, "mean_turns") - 2.0).abs() < 1e-12);
        let small = OutOfControl {
            size: Size::Small,
            crew_able: 1,
            driver: DriverState::Gone,
        }
        .into_model(4);
        assert!((value(&small, "p_immobilised") - 0.5).abs() < 1e-12);
        let nobody = OutOfControl {
            size: Size::Large,
            crew_able: 0,
            driver: DriverState::Gone,
        }
        .into_model(4);
        assert!((value(&nobody, "p_adrift") - 1.0).abs() < 1e-12);
    }

    #[test]
    fn a_down_warrior_cannot_dodge_the_trukk() {
        let stats = WarriorStats {
            toughness: 3,
            wounds: 1,
            save: None,
            ws: 3,
            bs: 3,
            pin_immune: false,
        };
        let leap = |down| {
            Leap {
                hazard: Hazard::Squash,
                stats: stats.clone(),
                initiative: 3,
                down,
                vehicle_fast: true,
            }
            .into_model()
        };
        // Initiative 3: dodges on 1-3
        assert!((value(&leap(false), "p_avoided") - 0.5).abs() < 1e-15);
        assert_eq!(value(&leap(true), "p_avoided"), 0.0);
        // S3 on T3 wounds on 4+; one Wound: the Injury Table's 6 is Out of Action
        let out = value(&leap(false), "p_out_of_action");
        assert!((out - 0.5 * 0.5 / 6.0).abs() < 1e-15, "{out}");
    }
}
