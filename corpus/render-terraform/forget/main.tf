# Objects removed from the configuration without being destroyed.
removed {
  from = terraform_data.gone
  lifecycle {
    destroy = false
  }
}

removed {
  from = terraform_data.many
  lifecycle {
    destroy = false
  }
}
