"""roce-cfg verify: what the switches report, checked against the plan."""
