package main

import (
	"fmt"

	"github.com/lockaudit/lockaudit/report"
)

// fleetResults are the saved runs of the fleet commands an audit report
// takes in (audit -scan SCAN.json -conform CONFORM.json): their coverage
// or tables, their findings and their errors join the engagement's one
// report.
type fleetResults struct {
	scan, conform string // the flags
	runs          []*report.Run
}

// read reads each saved run and checks it is the command's (relative
// paths from dir).
func (f *fleetResults) read(dir string) error {
	for _, in := range []struct{ flag, path, command string }{{"-scan", f.scan, "scan"}, {"-conform", f.conform, "conform"}} {
		if in.path == "" {
			continue
		}
		r, err := readRun(inDir(dir, in.path))
		if err != nil {
			return usageError("%s: %v", in.flag, err)
		}
		if r.Command != in.command {
			return usageError("%s: %s is a %s run, not a %s run (write one with lockaudit %s -o %s.json)", in.flag, in.path, r.Command, in.command, in.command, in.command)
		}
		f.runs = append(f.runs, r)
	}
	return nil
}

// attach puts the fleet commands' results into run: the scan's coverage,
// conform's table per node, and their findings and errors.
func (f *fleetResults) attach(run *report.Run) {
	for _, r := range f.runs {
		if r.Scan != nil {
			run.Scan = r.Scan
		}
		if len(r.Conform) > 0 {
			run.Conform = r.Conform
		}
		run.Findings = append(run.Findings, r.Findings...)
		for _, e := range r.Errors {
			run.Errors = append(run.Errors, report.Error{Where: e.Where, Message: fmt.Sprintf("lockaudit %s: %s", r.Command, e.Message)})
		}
	}
	if len(f.runs) > 0 {
		run.Sort()
	}
}
