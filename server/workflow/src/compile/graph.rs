//! Graph algorithms over step dependencies: cycle detection and Kahn layers.

use std::collections::HashSet;

/// Every elementary cycle found by a depth-first search (one per strongly connected group).
pub(super) fn find_cycles(deps: &[Vec<usize>]) -> Option<Vec<Vec<usize>>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Open,
        Done,
    }
    let n = deps.len();
    let mut mark = vec![Mark::New; n];
    let mut cycles = Vec::new();
    let mut in_cycle = HashSet::new();
    for start in 0..n {
        if mark[start] != Mark::New {
            continue;
        }
        // Iterative DFS along dependency edges: (node, next dep position).
        let mut stack: Vec<(usize, usize)> = vec![(start, 0)];
        mark[start] = Mark::Open;
        while let Some(&mut (node, ref mut pos)) = stack.last_mut() {
            if let Some(&next) = deps[node].get(*pos) {
                *pos += 1;
                match mark[next] {
                    Mark::New => {
                        mark[next] = Mark::Open;
                        stack.push((next, 0));
                    }
                    Mark::Open if !in_cycle.contains(&next) => {
                        let from = stack.iter().position(|&(s, _)| s == next).unwrap_or(0);
                        // Dependencies point backwards in execution order: reverse to read forwards.
                        let mut cycle: Vec<usize> = stack[from..].iter().map(|&(s, _)| s).collect();
                        cycle.reverse();
                        // Start at the step that comes first in the file.
                        let first = (0..cycle.len()).min_by_key(|&k| cycle[k]).unwrap_or(0);
                        cycle.rotate_left(first);
                        in_cycle.extend(cycle.iter().copied());
                        cycle.push(cycle[0]);
                        cycles.push(cycle);
                    }
                    _ => {}
                }
            } else {
                mark[node] = Mark::Done;
                stack.pop();
            }
        }
    }
    (!cycles.is_empty()).then_some(cycles)
}

pub(super) fn kahn_layers(deps: &[Vec<usize>]) -> Vec<Vec<usize>> {
    let n = deps.len();
    let mut indegree: Vec<usize> = deps.iter().map(Vec::len).collect();
    let mut dependents = vec![Vec::new(); n];
    for (i, list) in deps.iter().enumerate() {
        for &j in list {
            dependents[j].push(i);
        }
    }
    let mut layer: Vec<usize> = (0..n).filter(|&i| indegree[i] == 0).collect();
    let mut layers = Vec::new();
    while !layer.is_empty() {
        let mut next = Vec::new();
        for &i in &layer {
            for &k in &dependents[i] {
                indegree[k] -= 1;
                if indegree[k] == 0 {
                    next.push(k);
                }
            }
        }
        next.sort_unstable();
        layers.push(std::mem::replace(&mut layer, next));
    }
    layers
}
