from roce_cfg.cli import main

main()
