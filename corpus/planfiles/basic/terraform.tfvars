ports    = [80, 443]
settings = { enabled = true, tags = { env = "prod" }, ratio = 0.5 }
password = "hunter2-secret"
