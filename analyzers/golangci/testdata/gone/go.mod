module example.com/gone

go 1.26
