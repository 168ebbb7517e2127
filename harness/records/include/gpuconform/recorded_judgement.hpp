// SPDX-License-Identifier: Apache-2.0
#pragma once
// A run record's values judged again, against the expectation files of today (`gpuconform
// judge`): after the files move (a re-derivation, a new release), which verdicts of the runs
// already made would change, without a GPU.
//
// The value is judged as `run` judged it (verdict.hpp: the level's options, the sampling
// interval, the peak at the maximum clock, the SASS check, the waiver). What needed the GPU
// at the time is taken from the record as the run decided it: a fail the run measured again
// and found transient, or saw under a disturbance the throttle policy forgives, stays a warn;
// a clock event the throttle policy calls a fault stays a fail.
#include "gpuconform/expectation_types.hpp"
#include "gpuconform/run_record_reader.hpp"
#include "gpuconform/verdict.hpp"

namespace gpuconform {

struct RecordedJudgement {
  bool judged = false;         // the files have an entry for the probe (on this line's SKU and node size)
  Verdict verdict;             // the value against that entry; skip without one
  bool kept_from_run = false;  // the verdict is the run's own (re-measured, disturbed, or a throttle fault)
};

RecordedJudgement judge_recorded(const RecordedRun& run, const ExpectationSet& expectations);

}  // namespace gpuconform
