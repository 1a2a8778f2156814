"$1" taint -lock=false terraform_data.tainted >/dev/null
