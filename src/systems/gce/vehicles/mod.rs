//! Gorkamorka's vehicles: damage by location, fire, movement tests, rams
//! and collisions, squashing, boarding, and the Fort gate (Vehicles;
//! Taking Damage; Boarding Actions; Forts).

pub mod boarding;
pub mod damage;
pub mod fire;
pub mod gate;
pub mod hits;
pub mod movement;
pub mod params;
pub mod rams;

use crate::systems::MetricDecl;
use crate::systems::repeat_model::round_metrics;

/// Every metric of the vehicle-fire scenario, its turns included.
pub fn fire_metric_catalog() -> Vec<MetricDecl> {
    fire::VEHICLE_FIRE_METRICS
        .into_iter()
        .chain(round_metrics("turns"))
        .collect()
}

/// Every metric of the thrust scenario.
pub fn thrust_metric_catalog() -> Vec<MetricDecl> {
    movement::THRUST_METRICS.to_vec()
}

/// Every metric of the out-of-control scenario, its turns included.
pub fn out_of_control_metric_catalog() -> Vec<MetricDecl> {
    movement::OUT_OF_CONTROL_METRICS
        .into_iter()
        .chain(round_metrics("turns"))
        .collect()
}

/// Every metric of the gate scenario, its turns included.
pub fn gate_metric_catalog() -> Vec<MetricDecl> {
    gate::GATE_METRICS
        .into_iter()
        .chain(round_metrics("turns"))
        .collect()
}

/// Every vehicle table checked against the seed text as printed.
#[cfg(test)]
mod seed_tables {
    use super::damage::{PRESETS, parse_locations, parse_thrust};
    use super::gate::{GateResult, gate_table};
    use super::movement::{Buster, thruster_buster};
    use crate::systems::seed_text::{GCE, available, table_cells};

    /// "| Ork Trukk with ‘Eavy Shoota and Boarding Plank | ... | 1 | 8 |
    /// Crew | 4 | 8 | Wheels | ..." against the preset.
    #[test]
    fn the_trukk_hit_location_table_is_the_seeds() {
        if !available(GCE) {
            return;
        }
        let cells = table_cells(
            "| Ork Trukk with ‘Eavy Shoota and Boarding Plank |",
            "These are mostly fixed",
        );
        // after the header "D6 Armour Location D6 Armour Location": rows of six
        let at = cells.iter().position(|c| c == "1").expect("the first row");
        let mut rows: Vec<(u8, u8, String)> = cells[at..]
            .chunks(3)
            .map(|r| {
                (
                    r[0].parse().unwrap(),
                    r[1].parse().unwrap(),
                    r[2].to_ascii_lowercase(),
                )
            })
            .collect();
        rows.sort();
        let preset = PRESETS.iter().find(|p| p.name == "ork_trukk").unwrap();
        let locations = preset
            .sets
            .iter()
            .find(|(k, _)| *k == "locations")
            .unwrap()
            .1;
        let encoded = parse_locations(locations, "locations").unwrap();
        assert_eq!(rows.len(), 6);
        for ((d6, armour, name), loc) in rows.iter().zip(&encoded) {
            assert_eq!(
                (*armour, name.replace(' ', "_")),
                (loc.armour, loc.name.clone()),
                "D6 {d6}"
            );
        }
    }

    /// "| Ork Trukk | ... | Thrust Number | Score Required (D6) | 1 | 2+ |
    /// 2 | 3+ | 3+ | 4+ |".
    #[test]
    fn the_trukk_thrust_table_is_the_seeds() {
        if !available(GCE) {
            return;
        }
        let cells = table_cells(
            "| Ork Trukk |\n|\n|---|---|\n| Thrust Number |",
            "As you can see",
        );
        let at = cells
            .iter()
            .position(|c| c == "Score Required (D6)")
            .unwrap();
        let scores: Vec<String> = cells[at + 1..].chunks(2).map(|r| r[1].clone()).collect();
        assert_eq!(scores, ["2+", "3+", "4+"]);
        let preset = PRESETS.iter().find(|p| p.name == "ork_trukk").unwrap();
        let thrust = preset.sets.iter().find(|(k, _)| *k == "thrust").unwrap().1;
        assert_eq!(
            parse_thrust(thrust, "thrust").unwrap(),
            scores
                .iter()
                .map(|s| s.trim_end_matches('+').parse::<u8>().unwrap())
                .collect::<Vec<_>>()
        );
    }

    /// The Thruster Buster Table's four rows, by the words that open them.
    #[test]
    fn the_thruster_buster_table_is_the_seeds() {
        if !available(GCE) {
            return;
        }
        let cells = table_cells("| Thruster Buster Table |", "Once a Vehicle has done");
        let at = cells.iter().position(|c| c == "Result").unwrap();
        let rows: Vec<(&str, &str)> = cells[at + 1..]
            .chunks(2)
            .map(|r| (r[0].as_str(), r[1].as_str()))
            .collect();
        let want = [
            ("1", "Spin", Buster::Spin),
            ("2", "D6” forward and Spin", Buster::ForwardAndSpin),
            ("3", "Swerve and move D6” forward", Buster::Swerve),
            ("4+", "D6” forward", Buster::Forward),
        ];
        assert_eq!(rows.len(), want.len());
        for ((score, text), (s, opens, b)) in rows.iter().zip(want) {
            assert_eq!(*score, s);
            assert!(text.starts_with(opens), "{text}");
            let d6: u32 = s.trim_end_matches('+').parse().unwrap();
            assert_eq!(thruster_buster(d6), b);
        }
        assert_eq!(thruster_buster(6), Buster::Forward);
    }

    /// "For each Penetrating Hit on the Gate roll a D6: | 1 - 2 | ... | 3 |
    /// Something shifted! ... | 4 | There’s a gap! ... | 5 | Carnage! ... |
    /// 6 | Off the hinges!"
    #[test]
    fn the_gate_table_is_the_seeds() {
        if !available(GCE) {
            return;
        }
        let cells = table_cells(
            "For each Penetrating Hit on the Gate roll a D6:",
            "Shooting\nEach turn",
        );
        let at = cells.iter().position(|c| c == "Result").unwrap();
        let rows: Vec<(&str, &str)> = cells[at + 1..]
            .chunks(2)
            .map(|r| (r[0].as_str(), r[1].as_str()))
            .collect();
        let want = [
            ("1 - 2", "Some of the decorative trim", GateResult::Trim),
            ("3", "Something shifted!", GateResult::Shifted),
            ("4", "There’s a gap!", GateResult::Gap),
            ("5", "Carnage!", GateResult::Carnage),
            ("6", "Off the hinges!", GateResult::OffTheHinges),
        ];
        assert_eq!(rows.len(), want.len());
        for ((score, text), (s, opens, r)) in rows.iter().zip(want) {
            assert_eq!(*score, s);
            assert!(text.starts_with(opens), "{text}");
            let first: u32 = s.split(' ').next().unwrap().parse().unwrap();
            assert_eq!(gate_table(first), r);
        }
        // "It is the weakest point of the Fort and has a default Armour Value of 9."
        let text = crate::systems::seed_text::seed(GCE);
        let at = text.find("has a default Armour Value of ").unwrap();
        let armour = &text[at + "has a default Armour Value of ".len()..][..1];
        let decl = super::params::gate_params()
            .into_iter()
            .find(|d| d.name == "armour")
            .unwrap();
        assert_eq!(decl.need_text(), format!("default {armour}"));
    }
}
