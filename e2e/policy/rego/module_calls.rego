# Module calls: no `count` (use for_each) and no nesting deeper than one level, read from the configuration.
package tfwire.module_calls

deny contains msg if {
	walk(input.configuration.root_module, [path, call])
	count(path) >= 2
	path[count(path) - 2] == "module_calls"
	call.count_expression
	msg := sprintf("module call %s (source %q) uses count %v: use for_each", [call_path(path), call.source, call.count_expression])
}

deny contains msg if {
	walk(input.configuration.root_module, [path, call])
	count([p | some p in path; p == "module_calls"]) > 1
	path[count(path) - 2] == "module_calls"
	msg := sprintf("module call %s (source %q) is nested more than one level deep", [call_path(path), call.source])
}

warn contains msg if {
	walk(input.configuration.root_module, [path, call])
	count(path) >= 2
	path[count(path) - 2] == "module_calls"
	not startswith(call.source, "./")
	not call.version_constraint
	msg := sprintf("module call %s (source %q) has no version constraint", [call_path(path), call.source])
}

call_path(path) := concat(".", [sprintf("%v", [p]) | some p in path; p != "module_calls"; p != "module"])
