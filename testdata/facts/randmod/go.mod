module example.com/randmod

go 1.26.0
