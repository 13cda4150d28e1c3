// Package layering holds the test that keeps lockaudit's import rules
// (docs/architecture.md): rules imports nothing of ours; report imports
// neither the analyzers nor the probe, and the model not its renderers;
// only the command imports the renderers (report/render); the analyzers
// and the probe never import each other; the command composes them all.
package layering
