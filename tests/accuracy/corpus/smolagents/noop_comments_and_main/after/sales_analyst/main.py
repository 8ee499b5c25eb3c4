
from sales_analyst.agents import analyst

if __name__ == "__main__":
    import sys

    print(analyst.run(" ".join(sys.argv[1:]) or "How did EMEA do in 2025Q1?"))
