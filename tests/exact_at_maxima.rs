//! Every scenario with each whole-number parameter at its largest accepted
//! value, one at a time from each registry test point: the exact evaluation
//! returns a value or its reason (`NoExact`), never a wait of minutes or an
//! out-of-memory abort. A count of cells, not a timing: the slowest cells
//! are printed for the benchmarks, nothing asserts on time.

use krunch::systems::{self, ParamKind, ParamValue, Params, RULE_SETS};
use std::time::Instant;

#[test]
fn every_scenario_at_each_parameter_maximum_is_exact_or_says_why() {
    let mut cells = 0;
    let mut exact = 0;
    let mut slow: Vec<(f64, String, String)> = Vec::new();
    for r in RULE_SETS {
        for sc in r.scenarios {
            let decls = (sc.params)();
            for point in sc.test_points {
                for d in &decls {
                    let ParamKind::Int { hi, .. } = d.kind else {
                        continue;
                    };
                    let mut p = Params::new();
                    for (k, v) in point.iter() {
                        p.set(*k, ParamValue::from_text(v));
                    }
                    p.set(d.name.as_str(), ParamValue::Int(hi));
                    // a maximum another parameter refuses is not a cell
                    let Ok(model) = systems::build(r.name, sc.name, &p, &Params::new()) else {
                        continue;
                    };
                    cells += 1;
                    let t = Instant::now();
                    let result = model.exact_or_why();
                    let secs = t.elapsed().as_secs_f64();
                    if let Ok(values) = &result {
                        exact += 1;
                        assert_eq!(values.len(), model.metrics().len());
                    }
                    let what = match &result {
                        Ok(_) => "exact".to_string(),
                        Err(why) => why.to_string(),
                    };
                    slow.push((
                        secs,
                        format!("{}/{} {}={hi}", r.name, sc.name, d.name),
                        what,
                    ));
                }
            }
        }
    }
    slow.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (secs, cell, what) in slow.iter().take(15) {
        println!("{secs:8.3} s  {cell}: {what}");
    }
    println!("{exact} of {cells} cells exact");
    assert!(cells > 100, "{cells} cells");
}

/// Every whole-number parameter at its largest accepted value at once, from
/// each test point (where the registry accepts the combination): exact or
/// its reason, as above.
#[test]
fn every_scenario_at_all_its_maxima_at_once_is_exact_or_says_why() {
    let mut cells = 0;
    let mut slow: Vec<(f64, String, String)> = Vec::new();
    for r in RULE_SETS {
        for sc in r.scenarios {
            let decls = (sc.params)();
            for (i, point) in sc.test_points.iter().enumerate() {
                let mut p = Params::new();
                for (k, v) in point.iter() {
                    p.set(*k, ParamValue::from_text(v));
                }
                for d in &decls {
                    if let ParamKind::Int { hi, .. } = d.kind {
                        p.set(d.name.as_str(), ParamValue::Int(hi));
                    }
                }
                let Ok(model) = systems::build(r.name, sc.name, &p, &Params::new()) else {
                    continue;
                };
                cells += 1;
                let t = Instant::now();
                let what = match model.exact_or_why() {
                    Ok(values) => {
                        assert_eq!(values.len(), model.metrics().len());
                        "exact".to_string()
                    }
                    Err(why) => why.to_string(),
                };
                let secs = t.elapsed().as_secs_f64();
                slow.push((secs, format!("{}/{} point {i}", r.name, sc.name), what));
            }
        }
    }
    slow.sort_by(|a, b| b.0.total_cmp(&a.0));
    for (secs, cell, what) in slow.iter().take(15) {
        println!("{secs:8.3} s  {cell}: {what}");
    }
    println!("{cells} cells");
    // the registry accepts 67 such combinations today: a change that made
    // most of them unbuildable would hide them from this check
    assert!(cells >= 60, "{cells} cells");
}
